/**
 * An annotator's own key bindings for the task shortcuts (Label Studio's and Potato's custom hotkeys). Per task type,
 * the table an annotator may rebind is the type's shortcuts plus the item actions (skip, flag, undo); what is stored is
 * only what differs from the defaults, so a shortcut added later gets its default key. Pure: the settings page's
 * service checks a posted form with readKeyBindings, the task page applies the stored result with bindShortcuts.
 */
import { taskType, type TaskTypeId } from "../task-types/registry.ts";
import { ITEM_ACTION_SHORTCUTS } from "./item-action-shortcuts.ts";
import { displayKey, type ShortcutSpec } from "./shortcuts.ts";

/** Command → its keys, for the commands an annotator rebound (one task type). */
export type KeyOverrides = Readonly<Record<string, readonly string[]>>;
/** Task type id → that type's overrides: what is stored with the annotator. */
export type HotkeySettings = Readonly<Record<string, KeyOverrides>>;

export interface KeyProblem {
  /** The form field: `keys.<command>`. */
  path: string;
  message: string;
}

/** A command with more keys than this is hard to remember and crowds out the other commands. */
const MAX_ALTERNATIVES = 4;

/** Every shortcut of a task type's page, in cheat-sheet order: its own, then skip, flag and undo. */
export function pageShortcutTable(kind: TaskTypeId): readonly ShortcutSpec[] {
  return [...taskType(kind as string).keys.shortcuts, ...ITEM_ACTION_SHORTCUTS];
}

/** A table with the annotator's keys in place of the defaults; a stored value that no longer fits is ignored. */
export function bindShortcuts<Spec extends ShortcutSpec>(
  table: readonly Spec[],
  overrides: KeyOverrides | undefined,
): Spec[] {
  return table.map((spec) => {
    const keys = overrides?.[spec.command];
    if (!keys || spec.fixed || keys.length === 0) return spec;
    if (spec.positional && keys.length !== spec.keys.length) return spec;
    return { ...spec, keys };
  });
}

/** Keys as the settings form writes them (parseKeyName reads them back): "Ctrl+Enter" for Mod+Enter. */
export function writtenKeys(keys: readonly string[]): string {
  return keys.map((key) => key.replace(/^Mod\+/, "Ctrl+")).join(" ");
}

const MODIFIERS: Record<string, "Mod" | "Alt" | "Shift"> = {
  mod: "Mod",
  ctrl: "Mod",
  control: "Mod",
  cmd: "Mod",
  command: "Mod",
  meta: "Mod",
  "⌘": "Mod",
  alt: "Alt",
  option: "Alt",
  shift: "Shift",
};

const NAMED_KEYS: Record<string, string> = {
  enter: "Enter",
  return: "Enter",
  escape: "Escape",
  esc: "Escape",
  space: "Space",
  tab: "Tab",
  backspace: "Backspace",
  delete: "Delete",
  home: "Home",
  end: "End",
  pageup: "PageUp",
  pagedown: "PageDown",
  arrowup: "ArrowUp",
  arrowdown: "ArrowDown",
  arrowleft: "ArrowLeft",
  arrowright: "ArrowRight",
  up: "ArrowUp",
  down: "ArrowDown",
  left: "ArrowLeft",
  right: "ArrowRight",
  "↑": "ArrowUp",
  "↓": "ArrowDown",
  "←": "ArrowLeft",
  "→": "ArrowRight",
};

/**
 * The canonical name (shortcuts.ts keyName) of a key as an annotator writes it — "j", "?", "Enter", "ctrl+enter",
 * "Shift+x", "X" (Shift+x), "F2" — or null when it names no key a press can produce (a bare modifier, "Shift+1": a
 * shifted digit arrives as the character it makes).
 */
export function parseKeyName(text: string): string | null {
  const mods = new Set<string>();
  let rest = text.trim();
  for (let m = /^([^+]+)\+(.+)$/.exec(rest); m && MODIFIERS[m[1].toLowerCase()]; m = /^([^+]+)\+(.+)$/.exec(rest)) {
    mods.add(MODIFIERS[m[1].toLowerCase()]);
    rest = m[2];
  }
  let name: string;
  if ([...rest].length === 1) {
    const letter = /\p{L}/u.test(rest);
    if (!letter && rest.trim() === "") return null;
    if (!letter && mods.has("Shift")) return null;
    if (letter && rest !== rest.toLowerCase()) mods.add("Shift");
    name = letter ? rest.toLowerCase() : rest;
  } else {
    const named = NAMED_KEYS[rest.toLowerCase()] ?? (/^f([1-9]|1[0-2])$/i.test(rest) ? rest.toUpperCase() : null);
    if (!named) return null;
    name = named;
  }
  if (mods.has("Shift")) name = `Shift+${name}`;
  if (mods.has("Alt")) name = `Alt+${name}`;
  if (mods.has("Mod")) name = `Mod+${name}`;
  return name;
}

// Ctrl/⌘ with a letter, a digit or these is one browser's command or another (select all, copy, find, new tab, close,
// reload, print, save, bookmarks, zoom, tab switching…); Ctrl/⌘+Z (the task's undo) and +Enter stay free.
const BROWSER_MOD_KEYS = new Set(["+", "-", "=", "Tab", "PageUp", "PageDown"]);
const BROWSER_ALT_KEYS = new Set(["ArrowLeft", "ArrowRight", "Home", "d", "e", "f"]);

/** Why a key cannot be bound (the browser or focus movement owns it), or null when it can. */
export function reservedKey(name: string): string | null {
  const [last] = name.split("+").slice(-1);
  const bare = name.endsWith("++") ? "+" : last;
  if (name === "Tab" || name === "Shift+Tab") return "moves between the page's controls";
  if (/^F\d+$/.test(bare)) return "is the browser's (help, find, reload, full screen, developer tools)";
  if (name.startsWith("Mod+Shift+") || name.startsWith("Mod+Alt+")) return "is the browser's";
  if (name.startsWith("Mod+") && bare !== "z" && (/^[a-z0-9]$/.test(bare) || BROWSER_MOD_KEYS.has(bare)))
    return "is the browser's (copy, find, new tab, close…)";
  if (name.startsWith("Alt+") && BROWSER_ALT_KEYS.has(bare)) return "is the browser's (back, forward, menus)";
  return null;
}

const fieldOf = (command: string) => `keys.${command}`;

/** Reads one command's field: its keys, or the problem with it. */
function readField(spec: ShortcutSpec, text: string): { keys: string[] } | { problem: string } {
  const defaults = spec.keys.map(displayKey).join(" ");
  const words = text.split(/\s+/).filter(Boolean);
  if (words.length === 0) return { problem: `Give at least one key (default: ${defaults}).` };
  const keys: string[] = [];
  for (const word of words) {
    const name = parseKeyName(word);
    if (!name)
      return {
        problem: `"${word}" is not a key name: write keys like j, 5, ?, Enter, Space, ArrowDown, Ctrl+Enter or Shift+x, separated by spaces.`,
      };
    const reserved = reservedKey(name);
    if (reserved) return { problem: `${displayKey(name)} ${reserved}: choose another key.` };
    if (keys.includes(name)) return { problem: `${displayKey(name)} is given twice.` };
    keys.push(name);
  }
  if (spec.positional && keys.length !== spec.keys.length)
    return {
      problem: `Give exactly ${spec.keys.length} keys, one for each value in order (default: ${defaults}); you gave ${keys.length}.`,
    };
  if (!spec.positional && keys.length > MAX_ALTERNATIVES)
    return { problem: `Give at most ${MAX_ALTERNATIVES} keys; you gave ${keys.length}.` };
  return { keys };
}

/**
 * Checks a posted settings form for one task type — fields `keys.<command>`, each the command's keys separated by
 * spaces — and returns what differs from the defaults, or every problem by field: an unknown or unchangeable command,
 * a word that is no key, a key the browser keeps, a wrong count of positional keys, a key bound to two commands.
 */
export function readKeyBindings(
  kind: TaskTypeId,
  fields: Readonly<Record<string, string>>,
): { overrides: KeyOverrides; problems: KeyProblem[] } {
  const table = pageShortcutTable(kind);
  const problems: KeyProblem[] = [];
  for (const path of Object.keys(fields)) {
    const spec = table.find((s) => fieldOf(s.command) === path);
    if (!spec) problems.push({ path, message: `"${path.replace(/^keys\./, "")}" is not a command of this task.` });
    else if (spec.fixed) problems.push({ path, message: `"${spec.description}" keeps its key.` });
  }
  const bound = table.map((spec) => {
    const text = fields[fieldOf(spec.command)];
    if (spec.fixed || text === undefined) return spec;
    const read = readField(spec, text);
    if ("problem" in read) {
      problems.push({ path: fieldOf(spec.command), message: read.problem });
      return { ...spec, keys: [] };
    }
    return { ...spec, keys: read.keys };
  });
  problems.push(...clashes(bound));
  if (problems.length > 0) return { overrides: {}, problems };
  const overrides: Record<string, readonly string[]> = {};
  for (const spec of bound) {
    const before = table.find((s) => s.command === spec.command)!;
    if (spec.keys.join(" ") !== before.keys.join(" ")) overrides[spec.command] = spec.keys;
  }
  return { overrides, problems };
}

/** A key bound to two commands: a problem at every rebindable command that holds it. */
function clashes(bound: readonly ShortcutSpec[]): KeyProblem[] {
  const problems: KeyProblem[] = [];
  for (const spec of bound) {
    if (spec.fixed) continue;
    for (const key of spec.keys) {
      const other = bound.find((s) => s !== spec && s.keys.includes(key));
      if (!other) continue;
      problems.push({
        path: fieldOf(spec.command),
        message: `${displayKey(key)} is also the key of "${other.description}": a key can do one thing only.`,
      });
      break;
    }
  }
  return problems;
}

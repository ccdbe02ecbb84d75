/**
 * Keyboard shortcut plumbing shared by the task components: a canonical name for a key event, a
 * check for "the annotator is typing", and the shortcut table format the cheat sheet renders.
 */

export interface ShortcutSpec<Command extends string = string> {
  command: Command;
  /** Canonical key names (see `keyName`), e.g. "j", "ArrowDown", "Mod+Enter", "?". */
  keys: readonly string[];
  description: string;
  group: string;
  /** Each key stands for one value, in order (scores 1–5, options A–H): a rebinding gives as many keys. */
  positional?: boolean;
  /** Not rebindable by the annotator (its key is the platform's convention, e.g. Escape closes). */
  fixed?: boolean;
}

/** A shortcut the page adds to a task (skip, flag, undo): listed in the task's cheat sheet, run by its key handler. */
export interface PageShortcut extends ShortcutSpec {
  run: () => void;
}

/** The page shortcut bound to a key, if any. */
export function pageShortcutOf(shortcuts: readonly PageShortcut[] | undefined, event: KeyLike): PageShortcut | null {
  if (!shortcuts?.length) return null;
  const name = keyName(event);
  return shortcuts.find((s) => s.keys.includes(name)) ?? null;
}

/** The parts of a KeyboardEvent the shortcut code reads; plain objects work in tests. */
export interface KeyLike {
  key: string;
  shiftKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

/**
 * A layout-independent name for a key press: "Mod+" for Ctrl or Cmd, "Alt+" for Alt/Option,
 * "Shift+" for shifted letters and named keys. Shift is not added to other printable characters
 * because `key` already reflects it ("?" is Shift+/ on a US keyboard).
 */
export function keyName(event: KeyLike): string {
  const { key } = event;
  const single = [...key].length === 1;
  const letter = single && /\p{L}/u.test(key);
  let name = letter ? key.toLowerCase() : key === " " ? "Space" : key;
  if (event.shiftKey && (letter || !single)) name = `Shift+${name}`;
  if (event.altKey) name = `Alt+${name}`;
  if (event.ctrlKey || event.metaKey) name = `Mod+${name}`;
  return name;
}

/** The command bound to a key, if any. */
export function commandOf<Command extends string>(
  shortcuts: readonly ShortcutSpec<Command>[],
  event: KeyLike,
): Command | null {
  const name = keyName(event);
  return shortcuts.find((s) => s.keys.includes(name))?.command ?? null;
}

const TEXT_INPUT_TYPES = new Set([
  "text",
  "search",
  "email",
  "url",
  "tel",
  "password",
  "number",
  "date",
  "datetime-local",
  "month",
  "time",
  "week",
]);

/** True when the event target takes typed text, where single-key shortcuts must not fire. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).tagName !== "string") return false;
  const element = target as HTMLElement;
  const tag = element.tagName.toLowerCase();
  if (tag === "textarea" || tag === "select") return true;
  if (tag === "input") return TEXT_INPUT_TYPES.has(((element as HTMLInputElement).type || "text").toLowerCase());
  return element.isContentEditable === true;
}

/**
 * True when something else already handled the key (or an IME is composing). Radix radio items
 * cancel Enter to follow the ARIA radio pattern; Enter there still reaches our submit shortcut.
 */
export function handledElsewhere(event: {
  defaultPrevented: boolean;
  isComposing?: boolean;
  key: string;
  target: EventTarget | null;
}): boolean {
  if (event.isComposing) return true;
  if (!event.defaultPrevented) return false;
  const target = event.target as Element | null;
  return !(
    event.key === "Enter" &&
    typeof target?.getAttribute === "function" &&
    target.getAttribute("role") === "radio"
  );
}

/** True for controls whose own Enter/Space behaviour must win (buttons other than radios, links, summaries). */
export function isActivatableTarget(target: EventTarget | null): boolean {
  if (!target || typeof (target as Element).tagName !== "string") return false;
  const element = target as HTMLElement;
  if (element.getAttribute("role") === "radio") return false;
  const tag = element.tagName.toLowerCase();
  return tag === "button" || tag === "a" || tag === "summary" || element.getAttribute("role") === "button";
}

/** The keys bound to a command in a table ([] when it has none). */
export function keysOf(shortcuts: readonly ShortcutSpec[], command: string): readonly string[] {
  return shortcuts.find((s) => s.command === command)?.keys ?? [];
}

/** Key names as `aria-keyshortcuts` spells them ("Mod+z" is "Control+z Meta+z"). */
export function ariaKeys(keys: readonly string[]): string {
  return keys
    .flatMap((key) => (key.startsWith("Mod+") ? [`Control+${key.slice(4)}`, `Meta+${key.slice(4)}`] : [key]))
    .join(" ");
}

/** How a key name reads in the cheat sheet. */
export function displayKey(name: string): string {
  return name
    .split("+")
    .map((part) =>
      part === "Mod"
        ? "Ctrl/⌘"
        : part === "ArrowDown"
          ? "↓"
          : part === "ArrowUp"
            ? "↑"
            : part === "ArrowLeft"
              ? "←"
              : part === "ArrowRight"
                ? "→"
                : part === "Escape"
                  ? "Esc"
                  : part,
    )
    .join(" + ");
}

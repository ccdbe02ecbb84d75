/**
 * Which keys typed while the next item loads may still act on it once it is on screen (issue 28,
 * no blind labels). Only keys that move around or open and close reading aids queue; every other
 * key — a choice, a score, a position, a submit, a skip or a flag, and any key no table names — is
 * dropped, because an answer typed before the item was visible would be stored for an item its
 * annotator never saw. A list of what may queue rather than of what may not: a key added to a
 * task later is an answer key (dropped) until someone decides otherwise here.
 */
import { taskType, type TaskTypeId } from "../../task-types/registry.ts";
import { ITEM_ACTION_SHORTCUTS, type ItemActionCommand } from "../../domain/item-action-shortcuts.ts";
import { commandOf, keyName, type KeyLike } from "../../domain/shortcuts.ts";
import { bindShortcuts, type KeyOverrides } from "../../domain/hotkeys.ts";

/** Undo reopens the annotator's previous item (one they have seen); skip and flag decide about this one. */
const PAGE_QUEUE: readonly ItemActionCommand[] = ["undo"];
/** Moving focus answers nothing. */
const FOCUS_KEYS = new Set(["Tab", "Shift+Tab"]);

/**
 * True when a key typed before the item of this kind was on screen may act on it once it is; `overrides` are the
 * annotator's own keys for this type (hotkeys.ts), so the decision follows the command a key is bound to.
 */
export function mayQueueFor(kind: TaskTypeId, key: KeyLike, overrides?: KeyOverrides): boolean {
  if (FOCUS_KEYS.has(keyName(key))) return true;
  // The page's shortcuts win over the task's keys (useTaskKeys), so they decide first here too.
  const page = commandOf(bindShortcuts(ITEM_ACTION_SHORTCUTS, overrides), key);
  if (page) return PAGE_QUEUE.includes(page);
  // The task's own keys and which of them may queue: its definition's `keys`.
  const { shortcuts, queue } = taskType(kind as string).keys;
  const command = commandOf(bindShortcuts(shortcuts, overrides), key);
  return command !== null && queue.includes(command);
}

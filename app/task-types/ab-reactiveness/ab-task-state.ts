/** The A/B reactiveness task's key map and its one completeness rule, kept apart from React for tests. */
import { commandOf, isActivatableTarget, keyName, type KeyLike, type ShortcutSpec } from "../../domain/shortcuts.ts";
import type { FieldProblem } from "../task-view.ts";

export type AbChoice = "A" | "B";

export type AbCommand = "chooseA" | "chooseB" | "submit" | "toggleGuidelines" | "toggleCheatSheet" | "closeOverlay";

/** Used by the key handler and the cheat sheet alike. "m" matches the consensus task's guidelines key. */
export const AB_SHORTCUTS: readonly ShortcutSpec<AbCommand>[] = [
  { command: "chooseA", keys: ["1", "a"], description: "Choose conversation A", group: "Label" },
  { command: "chooseB", keys: ["2", "b"], description: "Choose conversation B", group: "Label" },
  { command: "submit", keys: ["Enter", "Mod+Enter"], description: "Submit and go to the next item", group: "Label" },
  { command: "toggleGuidelines", keys: ["g", "m"], description: "Show or hide the guidelines", group: "General" },
  { command: "toggleCheatSheet", keys: ["?"], description: "Show or hide this list of shortcuts", group: "General" },
  { command: "closeOverlay", keys: ["Escape"], description: "Close this list", group: "General", fixed: true },
];

/**
 * The command for a key press in `shortcuts` (the annotator's bindings of AB_SHORTCUTS), or null. Plain Enter or
 * Space on a button or link keeps its own meaning (opening the guidelines, say); on a choice or anywhere else it
 * submits.
 */
export function abCommandFor(
  event: KeyLike & { target?: EventTarget | null },
  shortcuts: readonly ShortcutSpec<AbCommand>[] = AB_SHORTCUTS,
): AbCommand | null {
  const command = commandOf(shortcuts, event);
  const plain = keyName(event) === "Enter" || keyName(event) === "Space";
  if (command === "submit" && plain && isActivatableTarget(event.target ?? null)) return null;
  return command;
}

export function abProblems(choice: AbChoice | null): FieldProblem[] {
  return choice === null ? [{ path: "choice", message: "Choose conversation A or B before submitting." }] : [];
}

/**
 * The keys of what an annotator can do on an item besides answering it. They avoid every key the
 * task types use (consensus: a–h, j, k, u, n, r, i, m, 1–5, [ ]; A/B: 1, 2, a, b, g, m) so one
 * table serves both, and each opens a dialog or reopens an item, never changes an answer.
 */
import type { ShortcutSpec } from "./shortcuts.ts";

export type ItemActionCommand = "skip" | "flag" | "undo";

export const ITEM_ACTION_SHORTCUTS: readonly ShortcutSpec<ItemActionCommand>[] = [
  {
    command: "skip",
    keys: ["s"],
    description: "Skip this item (a reason is optional); it goes to other annotators and is not shown to you again",
    group: "This item",
  },
  {
    command: "flag",
    keys: ["!"],
    description: "Flag this item for the study's admins, with a comment (it stays open for you)",
    group: "This item",
  },
  {
    command: "undo",
    keys: ["Mod+z"],
    description: "Undo last: reopen your previous submitted item to revise it",
    group: "This item",
  },
];

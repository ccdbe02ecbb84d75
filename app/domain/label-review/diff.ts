/**
 * What changed from one revision of a label to the next, in words, with the payload path of each
 * change (`topics.<topic>.score`, `topics.<topic>.positions.<party>`, `choice`, the same paths as
 * a label's validation problems) so a page can mark the changed answers. Each type words its own
 * changes (its folder's review.ts).
 */
import { taskType, type AnswerSummary } from "../../task-types/registry.ts";
import type { RevisionChange } from "./words.ts";

export type { RevisionChange };

/** The changes from `before` to `after`; [] for a first revision (before = null) or an unchanged resubmit. */
export function revisionChanges(before: AnswerSummary | null, after: AnswerSummary): RevisionChange[] {
  if (before === null) return [];
  if (before.kind !== after.kind) return [{ path: "", text: "The answer was replaced" }];
  return taskType(after.kind as string).review.changes(before, after);
}

/**
 * A label's history as its page shows it: every revision newest first, each with who saved it,
 * when, how, the answer in words and what changed from the revision before.
 */
import { revisionChanges, type RevisionChange } from "./diff.ts";
import type { AnswerSummary } from "./summary.ts";

/** One stored revision, summarised, oldest first as stored. */
export interface StoredRevision {
  revision: number;
  createdAt: string;
  secondsOnTask: number | null;
  /** True when submitted on the task page; false when a crowd platform's results import wrote it. */
  fromSite: boolean;
  summary: AnswerSummary;
}

export interface RevisionView {
  revision: number;
  createdAt: string;
  secondsOnTask: number | null;
  /** "Ada, on the task page" / "Ada, from the crowd platform's results". */
  who: string;
  summary: AnswerSummary;
  /** What changed from the revision before; [] for the first. */
  changes: RevisionChange[];
  latest: boolean;
}

export interface LabelHistoryView {
  labelId: number;
  studyId: number;
  studyName: string;
  itemId: number;
  scenario: string;
  place: string;
  /** The label's author: "You" for the author, their display name for an admin. */
  author: string;
  own: boolean;
  revisions: RevisionView[];
}

/** Revisions newest first, each compared with the one before it. */
export function historyRevisions(stored: readonly StoredRevision[], author: string): RevisionView[] {
  const ordered = [...stored].sort((a, b) => a.revision - b.revision);
  const last = ordered.length - 1;
  return ordered
    .map((r, i) => ({
      revision: r.revision,
      createdAt: r.createdAt,
      secondsOnTask: r.secondsOnTask,
      who: `${author}, ${r.fromSite ? "on the task page" : "from the crowd platform's results"}`,
      summary: r.summary,
      changes: revisionChanges(i === 0 ? null : ordered[i - 1].summary, r.summary),
      latest: i === last,
    }))
    .reverse();
}

/**
 * When an item was first shown to its annotator (issue 28, "no blind labels"). Every page that
 * serves an item to answer — the task page (experts, signed links, Prolific) and the MTurk
 * ExternalQuestion page — records it on the annotator's own assignment; a submit from those pages
 * that arrives before it is refused, because an answer to an item its annotator never saw is
 * noise that alpha and alignment would count. Recording a showing only updates the annotator's
 * existing assignment row: it never leases, creates or submits anything.
 */
import type { Db } from "../db.server.ts";
import { ServiceError, forbidden } from "../http/errors.server.ts";
import { findAssignment, markShown, type AssignmentRow } from "../models/assignment.server.ts";

/** True when a page serving this assignment's item still has to record the first showing. */
export function awaitsFirstShowing(assignment: Pick<AssignmentRow, "shownAt" | "status">): boolean {
  // A skipped item can be read but not answered: its showing decides nothing.
  return assignment.shownAt === null && assignment.status !== "skipped";
}

/** Records that the item is being shown to the annotator now, if no page has shown it before. */
export async function recordItemShown(db: Db, itemId: number, annotatorId: number, now = new Date()): Promise<void> {
  const assignment = await findAssignment(db, itemId, annotatorId);
  if (assignment && assignment.shownAt === null) await markShown(db, assignment.id, now.toISOString());
}

/**
 * Refuses (409) an answer that arrives when no page has shown the item to this annotator yet, or
 * before the moment it was shown; a 403 when the item is not theirs at all.
 */
export async function refuseUnshown(db: Db, itemId: number, annotatorId: number, now: Date): Promise<void> {
  const assignment = await findAssignment(db, itemId, annotatorId);
  if (!assignment) throw forbidden(`Item ${itemId} is not assigned to you`);
  const shownAt = assignment.shownAt === null ? Number.NaN : Date.parse(assignment.shownAt);
  if (!(shownAt <= now.getTime())) {
    throw new ServiceError(
      409,
      `Item ${itemId} had not been shown to you yet when this answer arrived, so it was not stored. Read the item, then answer it.`,
    );
  }
}

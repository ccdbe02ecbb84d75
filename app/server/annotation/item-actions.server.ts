/**
 * What an annotator may do on an item besides labelling it: skip it (with an optional reason),
 * flag it with a comment for the admins, and undo their last submit (reopen the previous item for
 * revision). Each checks who asks and that the item is theirs, whatever the page allowed.
 */
import { z } from "zod";
import type { SessionUser } from "../auth/session.server.ts";
import type { Db } from "../db.server.ts";
import { ServiceError, badInput, forbidden, zodProblems } from "../http/errors.server.ts";
import { findAssignment, markSkipped, submittedItemBefore, type AssignmentRow } from "../models/assignment.server.ts";
import { insertItemFlag } from "../models/item-flag.server.ts";
import { studyForWorker } from "./access.server.ts";
import { loadItem } from "./task-view.server.ts";
import { studyLock, transact } from "../db-transaction.server.ts";

export const SKIP_REASON_MAX = 500;
export const FLAG_COMMENT_MAX = 1000;

const skipReasonSchema = z.string().trim().max(SKIP_REASON_MAX, `at most ${SKIP_REASON_MAX} characters`);
const flagCommentSchema = z
  .string()
  .trim()
  .min(1, "say what is wrong with this item")
  .max(FLAG_COMMENT_MAX, `at most ${FLAG_COMMENT_MAX} characters`);

/** The open study, the item in it and the asker's own assignment on it; refuses anything else. */
async function ownItem(db: Db, studyId: number, itemId: number, user: SessionUser): Promise<AssignmentRow> {
  const study = await studyForWorker(db, studyId, user);
  if (study.status !== "open")
    throw new ServiceError(409, `Study ${studyId} is closed; its items can no longer be skipped or flagged`);
  await loadItem(db, studyId, itemId);
  const assignment = await findAssignment(db, itemId, user.id);
  if (!assignment) throw forbidden(`Item ${itemId} is not assigned to you`);
  return assignment;
}

function parsed<T>(schema: z.ZodType<T>, value: unknown, path: string, message: string): T {
  const result = schema.safeParse(typeof value === "string" ? value : "");
  if (!result.success) throw badInput(message, zodProblems(result.error, path));
  return result.data;
}

/** Skips the item: it goes back to the pool for others and is never offered to this annotator again. */
export async function skipItem(
  db: Db,
  studyId: number,
  itemId: number,
  user: SessionUser,
  reason: unknown,
): Promise<void> {
  const text = parsed(skipReasonSchema, reason ?? "", "reason", "The skip reason is too long");
  await transact(
    db,
    async (db) => {
      const assignment = await ownItem(db, studyId, itemId, user);
      if (assignment.status === "submitted")
        throw new ServiceError(
          409,
          "You have already labelled this item, so it cannot be skipped; you can revise your label instead",
        );
      if (assignment.status === "skipped") return;
      await markSkipped(db, assignment.id, new Date().toISOString(), text === "" ? null : text);
    },
    { lock: studyLock(studyId) },
  );
}

/** Stores the annotator's flag on an item (it neither skips nor submits); returns the flag id. */
export async function flagItem(
  db: Db,
  studyId: number,
  itemId: number,
  user: SessionUser,
  comment: unknown,
): Promise<number> {
  const text = parsed(flagCommentSchema, comment, "comment", "The flag needs a comment");
  return await transact(db, async (db) => {
    await ownItem(db, studyId, itemId, user);
    return await insertItemFlag(db, { studyItemId: itemId, annotatorId: user.id, comment: text });
  });
}

/**
 * The item to reopen for "undo last": the annotator's item submitted most recently before the one
 * they are on (any submitted one when the current item is not submitted yet). Nothing is deleted:
 * the item page shows the stored label and a new submit adds a revision.
 */
export async function undoTarget(db: Db, studyId: number, currentItemId: number, user: SessionUser): Promise<number> {
  await studyForWorker(db, studyId, user);
  await loadItem(db, studyId, currentItemId);
  const { itemId, before } = await previousSubmitted(
    db,
    studyId,
    await findAssignment(db, currentItemId, user.id),
    user.id,
  );
  if (itemId === undefined)
    throw new ServiceError(
      409,
      before
        ? "There is no earlier item of yours to reopen"
        : "You have not submitted any item in this study yet: there is nothing to undo",
    );
  return itemId;
}

/**
 * Whether undo-last has an item to reopen from the one whose assignment is `current` (the task page offers it only
 * then).
 */
export async function canUndoFrom(
  db: Db,
  studyId: number,
  current: AssignmentRow | undefined,
  annotatorId: number,
): Promise<boolean> {
  return (await previousSubmitted(db, studyId, current, annotatorId)).itemId !== undefined;
}

async function previousSubmitted(db: Db, studyId: number, current: AssignmentRow | undefined, annotatorId: number) {
  const before =
    current?.status === "submitted" && current.submittedAt !== null
      ? { submittedAt: current.submittedAt, id: current.id }
      : null;
  return { itemId: await submittedItemBefore(db, studyId, annotatorId, before), before };
}

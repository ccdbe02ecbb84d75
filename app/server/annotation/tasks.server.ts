/** Everything the task page needs for one item, checked for access and ownership, blinded by task-view. */
import { taskSettings } from "./annotator-settings.server.ts";
import type { SessionUser } from "../auth/session.server.ts";
import type { Db } from "../db.server.ts";
import { needsQualification, studyForWorker } from "./access.server.ts";
import { hasWorkFor } from "./assignment.server.ts";
import { findAssignment, statusCounts } from "../models/assignment.server.ts";
import { badInput, forbidden } from "../http/errors.server.ts";
import { itemCount } from "../models/study.server.ts";
import { latestOwnLabel, loadDraft } from "../models/label.server.ts";
import { listStudies } from "./studies.server.ts";
import { awaitsFirstShowing } from "./item-shown.server.ts";
import { saveDraft, submitShownLabel } from "./submit.server.ts";
import { canUndoFrom, flagItem, skipItem, undoTarget } from "./item-actions.server.ts";
import { loadItem } from "./task-view.server.ts";
import { TASK_SERVERS } from "../../task-types/registry.server.ts";
import { feedbackDue, goldFeedbackOf } from "./gold-feedback.server.ts";

export async function annotatorProgress(
  db: Db,
  studyId: number,
  annotatorId: number,
): Promise<{ total: number; done: number }> {
  const counts = await statusCounts(db, studyId, annotatorId);
  // Skipped items are no longer the annotator's to do, so they leave the total.
  return { total: (await itemCount(db, studyId)) - counts.skipped, done: counts.submitted };
}

/** The annotator's home: the open studies of their pool (crowd: the ones they entered), with progress. */
export async function annotatorHome(db: Db, user: SessionUser) {
  const studies = await Promise.all(
    (await listStudies(db, { pool: user.role as "expert" | "crowd" }))
      .filter((s) => s.status === "open" && (user.role !== "crowd" || user.crowdStudies.includes(s.id)))
      .map(async (s) => ({
        id: s.id,
        name: s.name,
        type: s.type,
        hasWork: await hasWorkFor(db, s.id, user.id),
        ...(await annotatorProgress(db, s.id, user.id)),
      })),
  );
  return { name: user.displayName, studies, mustQualify: needsQualification(user) };
}

/** `url` is the page's address: `?gold=` asks for feedback on a gold item just answered (gold-feedback.server.ts). */
export async function taskPage(db: Db, studyId: number, itemId: number, user: SessionUser, url?: URL) {
  const study = await studyForWorker(db, studyId, user);
  const item = await loadItem(db, studyId, itemId);
  const assignment = await findAssignment(db, itemId, user.id);
  if (!assignment) throw forbidden(`Item ${itemId} is not assigned to you`);
  const latest = await latestOwnLabel(db, itemId, user.id);
  const draft = await loadDraft(db, itemId, user.id);
  const settings = await taskSettings(db, user);
  return {
    study: {
      id: study.id,
      name: study.name,
      type: study.type,
      guidelines: study.guidelines,
      open: study.status === "open",
    },
    itemId,
    progress: await annotatorProgress(db, studyId, user.id),
    submitted: latest ? { revision: latest.revision, createdAt: latest.createdAt } : null,
    /** The comment of the annotator's latest revision, which a revision starts from. */
    comment: latest?.comment ?? "",
    /** The annotator's setting: a single-choice answer submits at once. */
    autoAdvance: settings.autoAdvance,
    /** The annotator's own keys for this task type (only those that differ from the defaults). */
    keyOverrides: settings.hotkeys[study.type] ?? {},
    /** Null unless the study gives gold feedback and the address names a gold item the annotator answered. */
    goldFeedback: url ? await goldFeedbackOf(db, studyId, url, user.id) : null,
    leaseExpiresAt: assignment.status === "leased" ? assignment.leaseExpiresAt : null,
    /** The annotator passed on this item: it can be read, not answered. */
    skipped: assignment.status === "skipped",
    canUndo: await canUndoFrom(db, studyId, assignment, user.id),
    /** No page has shown this item to the annotator yet: the loader records this showing (recordItemShown). */
    firstShowing: awaitsFirstShowing(assignment),
    // The form starts from the draft, else from the annotator's latest submitted label.
    ...(await TASK_SERVERS[item.kind].taskPart(db, item, user.id, { draft, latest: latest?.payload ?? null })),
  };
}

export interface TaskPost {
  intent: unknown;
  /** Skip reason or flag comment. */
  note?: unknown;
  /** The parsed payload field; undefined when it was not JSON. */
  payload: unknown;
  clientToken: string;
  secondsOnTask: number | null;
  /** The comment stored with a submitted label (optional). */
  comment?: unknown;
}

/** What the task page's action did: the route turns it into a response. */
export type TaskWorkResult =
  | { done: "draft" | "skipped" | "flagged" }
  /** `goldFeedback`: the item was gold on a study that says so after the answer. */
  | { done: "label"; goldFeedback: boolean }
  | { done: "undo"; itemId: number };

/** Carries out what the task page posted on an item: a draft, a label, a skip, a flag or an undo. */
export async function saveTaskWork(
  db: Db,
  studyId: number,
  itemId: number,
  user: SessionUser,
  post: TaskPost,
): Promise<TaskWorkResult> {
  await studyForWorker(db, studyId, user);
  switch (post.intent) {
    case "skip":
      await skipItem(db, studyId, itemId, user, post.note);
      return { done: "skipped" };
    case "flag":
      await flagItem(db, studyId, itemId, user, post.note);
      return { done: "flagged" };
    case "undo":
      return { done: "undo", itemId: await undoTarget(db, studyId, itemId, user) };
    default: {
      const done = await saveAnswer(db, studyId, itemId, user, post);
      return done === "draft" ? { done } : { done, goldFeedback: await feedbackDue(db, studyId, itemId) };
    }
  }
}

async function saveAnswer(
  db: Db,
  studyId: number,
  itemId: number,
  user: SessionUser,
  post: TaskPost,
): Promise<"draft" | "label"> {
  if (post.intent === "draft") {
    await saveDraft(db, studyId, itemId, user.id, post.payload);
    return "draft";
  }
  if (post.intent !== "submit") throw badInput(`Unknown action "${String(post.intent)}"`);
  if (post.payload === undefined)
    throw badInput("The label is not valid JSON", [{ path: "payload", message: "not JSON" }]);
  await submitShownLabel(db, {
    studyId,
    itemId,
    annotatorId: user.id,
    payload: post.payload,
    clientToken: post.clientToken,
    secondsOnTask: post.secondsOnTask,
    comment: post.comment,
  });
  return "label";
}

/** Everything the task page needs for one item, checked for access and ownership, blinded by task-view. */
import type { SessionUser } from "../auth/session.server.ts";
import type { Db } from "../db.server.ts";
import { needsQualification, studyForWorker } from "./access.server.ts";
import { hasWorkFor } from "./assignment.server.ts";
import { findAssignment } from "../models/assignment.server.ts";
import { badInput, forbidden } from "../http/errors.server.ts";
import { submittedCount } from "../models/assignment.server.ts";
import { itemCount } from "../models/study.server.ts";
import { latestOwnLabel, loadDraft } from "../models/label.server.ts";
import { listStudies } from "./studies.server.ts";
import { saveDraft, submitLabel } from "./submit.server.ts";
import { loadItem } from "./task-view.server.ts";
import { TASK_SERVERS } from "./task-types/registry.server.ts";

export function annotatorProgress(db: Db, studyId: number, annotatorId: number): { total: number; done: number } {
  return { total: itemCount(db, studyId), done: submittedCount(db, studyId, annotatorId) };
}

/** The annotator's home: the open studies of their pool (crowd: the ones they entered), with progress. */
export function annotatorHome(db: Db, user: SessionUser) {
  const studies = listStudies(db, { pool: user.role as "expert" | "crowd" })
    .filter((s) => s.status === "open" && (user.role !== "crowd" || user.crowdStudies.includes(s.id)))
    .map((s) => ({ id: s.id, name: s.name, type: s.type, hasWork: hasWorkFor(db, s.id, user.id), ...annotatorProgress(db, s.id, user.id) }));
  return { name: user.displayName, studies, mustQualify: needsQualification(user) };
}

export function taskPage(db: Db, studyId: number, itemId: number, user: SessionUser) {
  const study = studyForWorker(db, studyId, user);
  const item = loadItem(db, studyId, itemId);
  const assignment = findAssignment(db, itemId, user.id);
  if (!assignment) throw forbidden(`Item ${itemId} is not assigned to you`);
  const latest = latestOwnLabel(db, itemId, user.id);
  const draft = loadDraft(db, itemId, user.id);
  return {
    study: { id: study.id, name: study.name, type: study.type, guidelines: study.guidelines, open: study.status === "open" },
    itemId,
    progress: annotatorProgress(db, studyId, user.id),
    submitted: latest ? { revision: latest.revision, createdAt: latest.createdAt } : null,
    leaseExpiresAt: assignment.status === "leased" ? assignment.leaseExpiresAt : null,
    // The form starts from the draft, else from the annotator's latest submitted label.
    ...TASK_SERVERS[item.kind].taskPart(db, item, user.id, { draft, latest: latest?.payload ?? null }),
  };
}

export interface TaskPost {
  intent: unknown;
  /** The parsed payload field; undefined when it was not JSON. */
  payload: unknown;
  clientToken: string;
  secondsOnTask: number | null;
}

/** Stores what the task page posted on an item: an autosaved draft or a label; says which. */
export function saveTaskWork(db: Db, studyId: number, itemId: number, user: SessionUser, post: TaskPost): "draft" | "label" {
  studyForWorker(db, studyId, user);
  if (post.intent === "draft") {
    saveDraft(db, studyId, itemId, user.id, post.payload);
    return "draft";
  }
  if (post.intent !== "submit") throw badInput(`Unknown action "${String(post.intent)}"`);
  if (post.payload === undefined) throw badInput("The label is not valid JSON", [{ path: "payload", message: "not JSON" }]);
  submitLabel(db, { studyId, itemId, annotatorId: user.id, payload: post.payload, clientToken: post.clientToken, secondsOnTask: post.secondsOnTask });
  return "label";
}

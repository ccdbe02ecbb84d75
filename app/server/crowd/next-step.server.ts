/**
 * The "next item" step (issue 29: a GET changes nothing). Leasing the next item is a write, so it
 * happens only in actions: the task page's submit and skip, the reading test's pass, a crowd
 * entry and the POST of /annotate/:study/next. The GET of that page only looks (currentStep).
 */
import { needsQualification, studyForWorker } from "../annotation/access.server.ts";
import { hasWorkFor, nextTask } from "../annotation/assignment.server.ts";
import type { SessionUser } from "../auth/session.server.ts";
import type { Db } from "../db.server.ts";
import { heldLease } from "../models/assignment.server.ts";
import { channelNextPath, channelOfWorker } from "../../crowd-channels/registry.server.ts";

/** Where the worker lands when nothing is left for them: the read-only page, told not to start again. */
export const noMoreWorkPath = (studyId: number) => `/annotate/${studyId}/next?done=1`;

/**
 * Where the worker goes next, leasing their next item when there is one (call from an action,
 * under the write lock): their channel's own step (Prolific's completion), the reading test, the
 * item, or the page saying nothing is left.
 */
export async function takeNextStep(db: Db, studyId: number, user: SessionUser, now = new Date()): Promise<string> {
  await studyForWorker(db, studyId, user);
  const channelNext = await channelNextPath(db, studyId, user);
  if (channelNext) return channelNext;
  if (needsQualification(user)) return `/crowd/qualify?study=${studyId}`;
  const lease = await nextTask(db, studyId, user.id, now);
  return lease ? `/annotate/${studyId}/items/${lease.itemId}` : noMoreWorkPath(studyId);
}

/** What the GET of the next page may do without writing: go to a lease already held, or to the test. */
export type CurrentStep = { kind: "go"; path: string } | { kind: "start"; name: string; hasWork: boolean };

export async function currentStep(db: Db, studyId: number, user: SessionUser, now = new Date()): Promise<CurrentStep> {
  const study = await studyForWorker(db, studyId, user);
  if (needsQualification(user)) return { kind: "go", path: `/crowd/qualify?study=${studyId}` };
  const held = await heldLease(db, studyId, user.id);
  if (held && Date.parse(held.leaseExpiresAt) > now.getTime())
    return { kind: "go", path: `/annotate/${studyId}/items/${held.itemId}` };
  // A channel with a completion step (Prolific) may owe the worker a code: only its POST step knows.
  const ownStep = channelOfWorker(user.channel)?.completion.finish != null;
  return { kind: "start", name: study.name, hasWork: ownStep || (await hasWorkFor(db, studyId, user.id, now)) };
}

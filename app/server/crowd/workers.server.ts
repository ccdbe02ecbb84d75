/** Crowd workers: annotator accounts keyed by the channel namespace they came through and their id there. */
import type { Db } from "../db.server.ts";
import { badInput } from "../http/errors.server.ts";
import { findCrowdWorker, insertAnnotatorIfNew } from "../models/annotator.server.ts";
import { isWorkerId, WORKER_ID_FORMAT } from "../../domain/crowd/worker-id.ts";

export { isWorkerId };

/** The namespaces crowd workers are stored under (annotators.channel); MTurk's two channels share one. */
export const WORKER_CHANNELS = ["link", "mturk", "prolific"] as const;
export type WorkerChannel = (typeof WORKER_CHANNELS)[number];

/**
 * Whether a namespace's identity is verified when the worker enters (a signed link), or only when
 * the channel later confirms their work (MTurk lists the assignment, a Prolific export lists the
 * session). Labels from the second kind are stored pending until then (annotation/label-status.server.ts).
 */
export const CONFIRMED_AT_ENTRY: Record<WorkerChannel, boolean> = { link: true, mturk: false, prolific: false };

export function isWorkerChannel(value: string | null): value is WorkerChannel {
  return (WORKER_CHANNELS as readonly (string | null)[]).includes(value);
}

/** The crowd annotator for a worker id on a channel, created on first arrival. */
export function findOrCreateCrowdWorker(db: Db, channel: WorkerChannel, workerId: string): number {
  const cleaned = workerId.trim();
  if (!isWorkerId(cleaned)) throw badInput(`A worker id is ${WORKER_ID_FORMAT}`, [{ path: "workerId", message: WORKER_ID_FORMAT }]);
  const existing = findCrowdWorker(db, channel, cleaned);
  if (existing !== undefined) return existing;
  // A concurrent first arrival may win the insert; then the stored row is the answer.
  return (
    insertAnnotatorIfNew(db, { username: `${channel}:${cleaned}`, displayName: `${channel} worker ${cleaned}`, role: "crowd", channel, externalId: cleaned }) ??
    findOrCreateCrowdWorker(db, channel, cleaned)
  );
}

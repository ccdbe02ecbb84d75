/** Crowd workers: annotator accounts keyed by the channel namespace they came through and their id there. */
import type { Db } from "../db.server.ts";
import { badInput } from "../http/errors.server.ts";
import { findCrowdWorker, insertAnnotatorIfNew } from "../models/annotator.server.ts";
import { isWorkerId, WORKER_ID_FORMAT } from "../../domain/crowd/worker-id.ts";
import {
  CHANNEL_FOLDERS,
  isWorkerChannel,
  WORKER_CHANNELS,
  type WorkerChannel,
} from "../../crowd-channels/registry.ts";

export { isWorkerId };
export { isWorkerChannel, WORKER_CHANNELS, type WorkerChannel };

/**
 * Whether a namespace's identity is verified when the worker enters (a signed link), or only when
 * the channel later confirms their work (MTurk lists the assignment, a Prolific export lists the
 * session). Labels from the second kind are stored pending until then (annotation/label-status.server.ts).
 * Declared by each channel folder (app/crowd-channels/<id>/descriptor.ts).
 */
export const CONFIRMED_AT_ENTRY = Object.fromEntries(CHANNEL_FOLDERS.map((f) => [f.id, f.confirmedAtEntry])) as Record<
  WorkerChannel,
  boolean
>;

/** The crowd annotator for a worker id on a channel, created on first arrival. */
export async function findOrCreateCrowdWorker(db: Db, channel: WorkerChannel, workerId: string): Promise<number> {
  const cleaned = workerId.trim();
  if (!isWorkerId(cleaned))
    throw badInput(`A worker id is ${WORKER_ID_FORMAT}`, [{ path: "workerId", message: WORKER_ID_FORMAT }]);
  const existing = await findCrowdWorker(db, channel, cleaned);
  if (existing !== undefined) return existing;
  // A concurrent first arrival may win the insert; then the stored row is the answer.
  return (
    (await insertAnnotatorIfNew(db, {
      username: `${channel}:${cleaned}`,
      displayName: `${channel} worker ${cleaned}`,
      role: "crowd",
      channel,
      externalId: cleaned,
    })) ?? (await findOrCreateCrowdWorker(db, channel, cleaned))
  );
}

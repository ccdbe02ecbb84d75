/**
 * Before a crowd worker enters a study (and before any reading test): is there anything left for
 * them to do? A worker should never take an unpaid test for a study whose items all hold their k
 * labels. The check is read-only, so a refused worker leaves nothing stored.
 */
import { hasWorkFor } from "../annotation/assignment.server.ts";
import type { Db } from "../db.server.ts";
import { findCrowdWorker, qualifiedAt } from "../models/annotator.server.ts";
import type { CrowdChannel } from "../../crowd-channels/channel.server.ts";
import { CONFIRMED_AT_ENTRY, type WorkerChannel } from "./workers.server.ts";

/** No annotator has this id: "could a newcomer get an item?" asks about nobody's own rows. */
const NEWCOMER = -1;

/**
 * True when the study has no item for this worker and they have not passed the reading test (so
 * entering would lead to the test, then to nothing). A qualified worker who is already known
 * enters as usual: no test is ahead of them, and their channel may owe them a completion code.
 */
export async function noWorkBeforeEntry(
  db: Db,
  studyId: number,
  workerChannel: WorkerChannel,
  workerId: string | null,
): Promise<boolean> {
  const known = workerId ? await findCrowdWorker(db, workerChannel, workerId.trim()) : undefined;
  if (known !== undefined && (await qualifiedAt(db, known))) return false;
  // Unverified namespaces (MTurk, Prolific) ask about the places beyond k that they may take.
  return !(await hasWorkFor(db, studyId, known ?? NEWCOMER, new Date(), CONFIRMED_AT_ENTRY[workerChannel]));
}

/** The same check for whoever a /crowd/start link names (channels that start no session are never refused here). */
export async function noWorkForEntrant(
  db: Db,
  studyId: number,
  channel: CrowdChannel,
  params: URLSearchParams,
): Promise<boolean> {
  const param = "workerParam" in channel.entry ? channel.entry.workerParam : null;
  return param !== null && (await noWorkBeforeEntry(db, studyId, channel.identity.workerChannel, params.get(param)));
}

export const NO_WORK_MESSAGE =
  "There is no work left in this study: every item already has all the answers it needs. You have not been asked to do anything, and nothing was recorded.";

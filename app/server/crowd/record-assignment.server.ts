/**
 * Recording paid crowd work as the channels report it. One row per MTurk assignment (from a
 * results file, an ExternalQuestion submit, or `mturk sync`), keyed by the channel's id for it,
 * so the same assignment is stored once however often it arrives. The label it carries goes
 * through the submit service's validation and the label store's append-only revisions, like a
 * label from the web task.
 */
import { createHash } from "node:crypto";
import type { Db } from "../db.server.ts";
import { validatePayload } from "../annotation/submit.server.ts";
import { ServiceError } from "../http/errors.server.ts";
import { upsertSubmitted } from "../models/assignment.server.ts";
import { channelRevisionPayloads, writeLabelRevision } from "../models/label.server.ts";
import {
  findCrowdAssignment,
  insertCrowdAssignment,
  setCrowdAssignmentHash,
  confirmCrowdAssignment,
  setCrowdAssignmentLabel,
  setCrowdAssignmentStatus,
  type CrowdAssignmentStatus,
  type CrowdSource,
  type StoredCrowdAssignment,
} from "../models/crowd-assignment.server.ts";
import type { LabelPayload } from "../../task-types/registry.ts";
import type { LabelStatus } from "../../domain/label-status.ts";
import { confirmLabel, statusForNewLabel } from "../annotation/label-status.server.ts";
import { findCrowdWorker } from "../models/annotator.server.ts";
import type { StudyRow } from "../models/study.server.ts";
import { studyOrNotFound } from "./crowd-study.server.ts";
import { findOrCreateCrowdWorker, type WorkerChannel } from "./workers.server.ts";
import { studyLock, transact } from "../db-transaction.server.ts";

export interface CrowdAssignmentInput {
  channel: Exclude<WorkerChannel, "link">;
  /** MTurk AssignmentId. */
  externalId: string;
  /** MTurk HITId. */
  externalGroupId: string | null;
  studyId: number;
  itemId: number;
  /** The worker's id on the channel (MTurk WorkerId). */
  workerId: string;
  status: Exclude<CrowdAssignmentStatus, "accepted">;
  /** The answer; ignored for a rejected assignment, whose work is not used. */
  payload: unknown;
  secondsOnTask: number | null;
  rewardUsd: number | null;
  acceptedAt: string | null;
  submittedAt: string | null;
  source: CrowdSource;
}

export type CrowdAssignmentOutcome =
  /** A new label (or a new revision of the worker's label on this item), with the status the label now holds. */
  | { kind: "stored"; labelId: number; revision: number; labelStatus: LabelStatus }
  /** Rejected on the channel: recorded and counted, its answer not used. */
  | { kind: "rejected" }
  /** Seen before with the same answer; only a changed status was written, if any. */
  | { kind: "unchanged"; statusChanged: boolean }
  /** Seen before pending (an ExternalQuestion answer), now confirmed by MTurk: its label is counted or surplus. */
  | { kind: "confirmed"; labelId: number | null; labelStatus: LabelStatus | null; statusChanged: boolean }
  /**
   * Seen before pending, but MTurk reports another worker or HIT for the AssignmentId: left pending, nothing written.
   */
  | { kind: "mismatch"; message: string };

/**
 * Sources that speak for MTurk itself: a results file downloaded from the requester site and the
 * API's ListAssignmentsForHIT (`mturk sync`). What they report is confirmed; an ExternalQuestion
 * submit (the worker's browser, carrying MTurk's query parameters) stays pending until one of them
 * reports the same AssignmentId for the same worker and HIT.
 */
const CONFIRMING_SOURCES: ReadonlySet<CrowdSource> = new Set(["batch-import", "sync"]);

export const confirmsAssignment = (source: CrowdSource): boolean => CONFIRMING_SOURCES.has(source);

export function payloadHash(payload: unknown): string {
  return createHash("sha256").update(JSON.stringify(payload)).digest("hex");
}

/** What the writers below need of the study, loaded once per assignment. */
type StudyFacts = Pick<StudyRow, "status" | "labelsPerItem">;

const closed = (studyId: number) => new ServiceError(409, `Study ${studyId} is closed; reopen it to add labels`);

/**
 * The label of an accepted assignment, as the worker's submitted work on the item: pending when
 * its source does not confirm the assignment, else counted or surplus within k. A confirming
 * source that adds a revision to a label still pending (the worker's own unconfirmed answer)
 * confirms that label too: its latest revision is now the confirmed one.
 */
async function storeLabel(
  db: Db,
  input: CrowdAssignmentInput,
  { labelsPerItem }: StudyFacts,
  annotatorId: number,
  payload: LabelPayload,
) {
  await upsertSubmitted(db, input.itemId, annotatorId, input.submittedAt ?? new Date().toISOString());
  const confirmed = confirmsAssignment(input.source);
  const statusIfNew = await statusForNewLabel(db, input.itemId, labelsPerItem, confirmed);
  const written = await writeLabelRevision(db, {
    itemId: input.itemId,
    annotatorId,
    payload,
    clientToken: null,
    secondsOnTask: input.secondsOnTask,
    statusIfNew,
  });
  const labelStatus = confirmed ? await confirmLabel(db, written.labelId, input.itemId, labelsPerItem) : written.status;
  return { labelId: written.labelId, revision: written.revision, labelStatus };
}
/**
 * The hash of the answer stored for an assignment. Migration 0005 cleared the hashes (SQL cannot
 * recompute sha256 after renaming the payload kinds); such a row gets its hash back from the
 * label revision the assignment wrote, one of the label's crowd-written revisions: the one with
 * the incoming answer if there is one (then it is saved), else the latest, which then differs.
 */
async function storedHash(db: Db, stored: StoredCrowdAssignment, hash: string | null): Promise<string | null> {
  if (stored.payloadHash || stored.labelId === null || hash === null) return stored.payloadHash;
  const written = (await channelRevisionPayloads(db, stored.labelId)).map(payloadHash);
  if (!written.includes(hash)) return written.at(-1) ?? null;
  await setCrowdAssignmentHash(db, stored.id, hash);
  return hash;
}

/**
 * Why a confirming source's report does not match a pending assignment stored from the task page
 * (another worker, HIT, item or answer under the same AssignmentId), or null when it matches.
 */
async function mismatchOf(
  db: Db,
  input: CrowdAssignmentInput,
  stored: StoredCrowdAssignment,
  hash: string | null,
): Promise<string | null> {
  const differs: string[] = [];
  if ((await findCrowdWorker(db, input.channel, input.workerId.trim())) !== stored.annotatorId)
    differs.push(`worker ${input.workerId}`);
  if (stored.externalGroupId !== input.externalGroupId)
    differs.push(`HIT ${input.externalGroupId ?? "(none)"}, not ${stored.externalGroupId ?? "(none)"}`);
  if (stored.studyItemId !== input.itemId) differs.push(`item ${input.itemId}, not ${stored.studyItemId}`);
  if (hash && stored.payloadHash && hash !== stored.payloadHash) differs.push("a different answer");
  if (differs.length === 0) return null;
  return `Assignment ${input.externalId} was stored pending from the task page, but MTurk reports ${differs.join(", ")}; it stays pending and is not counted`;
}

/**
 * A pending assignment a confirming source now reports: it is confirmed, and its label counted or surplus unless MTurk
 * rejected the work.
 */
async function confirmStored(
  db: Db,
  input: CrowdAssignmentInput,
  study: StudyFacts,
  stored: StoredCrowdAssignment,
  statusChanged: boolean,
): Promise<CrowdAssignmentOutcome> {
  await confirmCrowdAssignment(db, stored.id, new Date().toISOString());
  if (stored.labelId === null || input.status === "rejected")
    return { kind: "confirmed", labelId: stored.labelId, labelStatus: null, statusChanged };
  const labelStatus = await confirmLabel(db, stored.labelId, input.itemId, study.labelsPerItem);
  return { kind: "confirmed", labelId: stored.labelId, labelStatus, statusChanged };
}

/**
 * An assignment seen before: the same answer changes at most the status (and confirms a pending
 * one a confirming source reports); a different one is refused.
 */
async function updateStored(
  db: Db,
  input: CrowdAssignmentInput,
  study: StudyFacts,
  stored: StoredCrowdAssignment,
  payload: LabelPayload | null,
  hash: string | null,
): Promise<CrowdAssignmentOutcome> {
  const confirming = isPendingReport(input, stored);
  const storedAnswer = await storedHash(db, stored, hash);
  if (hash && storedAnswer && hash !== storedAnswer) {
    throw new ServiceError(
      409,
      `Assignment ${input.externalId} was imported before with a different answer; the stored answer is kept`,
    );
  }
  const statusChanged = stored.status !== input.status;
  if (statusChanged) await setCrowdAssignmentStatus(db, stored.id, input.status);
  // An assignment first seen rejected and later approved (a reversed rejection) now brings its label.
  if (payload && hash && stored.labelId === null) {
    if (study.status !== "open") throw closed(input.studyId);
    const written = await storeLabel(db, input, study, stored.annotatorId, payload);
    await setCrowdAssignmentLabel(db, stored.id, written.labelId, hash);
    if (confirming) await confirmCrowdAssignment(db, stored.id, new Date().toISOString());
    return { kind: "stored", ...written };
  }
  return confirming
    ? await confirmStored(db, input, study, stored, statusChanged)
    : { kind: "unchanged", statusChanged };
}

/** A confirming source reporting an assignment stored pending (from the task page). */
const isPendingReport = (input: CrowdAssignmentInput, stored: StoredCrowdAssignment | undefined): boolean =>
  stored !== undefined && stored.confirmedAt === null && confirmsAssignment(input.source);

async function recordNew(
  db: Db,
  input: CrowdAssignmentInput,
  study: StudyFacts,
  annotatorId: number,
  payload: LabelPayload | null,
  hash: string | null,
): Promise<CrowdAssignmentOutcome> {
  if (study.status !== "open") throw closed(input.studyId);
  const written = payload ? await storeLabel(db, input, study, annotatorId, payload) : null;
  await insertCrowdAssignment(db, {
    channel: input.channel,
    externalId: input.externalId,
    externalGroupId: input.externalGroupId,
    studyId: input.studyId,
    studyItemId: input.itemId,
    annotatorId,
    labelId: written?.labelId ?? null,
    payloadHash: hash,
    status: input.status,
    rewardUsd: input.rewardUsd,
    workSeconds: input.secondsOnTask,
    acceptedAt: input.acceptedAt,
    submittedAt: input.submittedAt,
    source: input.source,
    confirmedAt: confirmsAssignment(input.source) ? new Date().toISOString() : null,
  });
  return written ? { kind: "stored", ...written } : { kind: "rejected" };
}

/**
 * Stores one crowd assignment and its label. Idempotent on (channel, externalId): the same
 * answer again changes at most the status; a different answer or item is refused (409), never
 * overwritten. A confirming source (results file, sync) stores confirmed work and confirms a
 * pending assignment it reports for the same worker and HIT; another worker or HIT is a
 * "mismatch" and changes nothing. Runs in its own transaction, or as a savepoint inside the caller's.
 */
export async function recordCrowdAssignment(db: Db, input: CrowdAssignmentInput): Promise<CrowdAssignmentOutcome> {
  return await transact(
    db,
    async (db): Promise<CrowdAssignmentOutcome> => {
      const study = await studyOrNotFound(db, input.studyId);
      const stored = await findCrowdAssignment(db, input.channel, input.externalId);
      const pending = isPendingReport(input, stored) ? stored : undefined;
      if (stored && !pending && stored.studyItemId !== input.itemId) {
        throw new ServiceError(
          409,
          `Assignment ${input.externalId} was stored for item ${stored.studyItemId}, not item ${input.itemId}`,
        );
      }
      // A pending assignment reported for another worker, HIT or item is left as it is; the worker is not even created.
      if (pending) {
        const mismatch = await mismatchOf(db, input, pending, null);
        if (mismatch) return { kind: "mismatch", message: mismatch };
      }
      const annotatorId = stored?.annotatorId ?? (await findOrCreateCrowdWorker(db, input.channel, input.workerId));
      // A rejected assignment's answer is never used, so it need not be valid.
      const payload =
        input.status === "rejected"
          ? null
          : await validatePayload(db, input.itemId, input.studyId, annotatorId, input.payload);
      const hash = payload ? payloadHash(payload) : null;
      if (pending) {
        const mismatch = await mismatchOf(db, input, pending, hash);
        if (mismatch) return { kind: "mismatch", message: mismatch };
      }
      return stored
        ? await updateStored(db, input, study, stored, payload, hash)
        : await recordNew(db, input, study, annotatorId, payload, hash);
    },
    { lock: studyLock(input.studyId) },
  );
}

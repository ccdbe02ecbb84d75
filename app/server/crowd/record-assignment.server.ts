/**
 * Recording paid crowd work as the channels report it. One row per MTurk assignment (from a
 * results file, an ExternalQuestion submit, or `mturk sync`), keyed by the channel's id for it,
 * so the same assignment is stored once however often it arrives. The label it carries goes
 * through the submit service's validation and the label store's append-only revisions, like a
 * label from the web task.
 */
import { createHash } from "node:crypto";
import { writeTransaction, type Db } from "../db.server.ts";
import { validatePayload } from "../annotation/submit.server.ts";
import { ServiceError } from "../http/errors.server.ts";
import { upsertSubmitted } from "../models/assignment.server.ts";
import { channelRevisionPayloads, writeLabelRevision } from "../models/label.server.ts";
import {
  findCrowdAssignment,
  insertCrowdAssignment,
  setCrowdAssignmentHash,
  setCrowdAssignmentLabel,
  setCrowdAssignmentStatus,
  type CrowdAssignmentStatus,
  type CrowdSource,
  type StoredCrowdAssignment,
} from "../models/crowd-assignment.server.ts";
import type { LabelPayload } from "../../domain/labels.ts";
import { statusForNewLabel } from "../annotation/label-status.server.ts";
import { studyOrNotFound } from "./crowd-study.server.ts";
import { findOrCreateCrowdWorker, type WorkerChannel } from "./workers.server.ts";

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
  /** A new label (or a new revision of the worker's label on this item). */
  | { kind: "stored"; labelId: number; revision: number }
  /** Rejected on the channel: recorded and counted, its answer not used. */
  | { kind: "rejected" }
  /** Seen before with the same answer; only a changed status was written, if any. */
  | { kind: "unchanged"; statusChanged: boolean };

export function payloadHash(payload: unknown): string {
  return createHash("sha256").update(JSON.stringify(payload)).digest("hex");
}

const closed = (studyId: number) => new ServiceError(409, `Study ${studyId} is closed; reopen it to add labels`);

/**
 * The label of an accepted assignment, as the worker's submitted work on the item.
 * TODO(issue 12, crowd helper): pending until the channel confirms the assignment; counted or surplus within k after.
 */
function storeLabel(db: Db, input: CrowdAssignmentInput, annotatorId: number, payload: LabelPayload) {
  upsertSubmitted(db, input.itemId, annotatorId, input.submittedAt ?? new Date().toISOString());
  const { labelsPerItem } = studyOrNotFound(db, input.studyId);
  const statusIfNew = statusForNewLabel(db, input.itemId, labelsPerItem, input.source !== "external-question");
  const { labelId, revision } = writeLabelRevision(db, { itemId: input.itemId, annotatorId, payload, clientToken: null, secondsOnTask: input.secondsOnTask, statusIfNew });
  return { labelId, revision };
}

/**
 * The hash of the answer stored for an assignment. Migration 0005 cleared the hashes (SQL cannot
 * recompute sha256 after renaming the payload kinds); such a row gets its hash back from the
 * label revision the assignment wrote, one of the label's crowd-written revisions: the one with
 * the incoming answer if there is one (then it is saved), else the latest, which then differs.
 */
function storedHash(db: Db, stored: StoredCrowdAssignment, hash: string | null): string | null {
  if (stored.payloadHash || stored.labelId === null || hash === null) return stored.payloadHash;
  const written = channelRevisionPayloads(db, stored.labelId).map(payloadHash);
  if (!written.includes(hash)) return written.at(-1) ?? null;
  setCrowdAssignmentHash(db, stored.id, hash);
  return hash;
}

/** An assignment seen before: the same answer changes at most the status; a different one is refused. */
function updateStored(db: Db, input: CrowdAssignmentInput, stored: StoredCrowdAssignment, payload: LabelPayload | null, hash: string | null, studyOpen: boolean): CrowdAssignmentOutcome {
  const storedAnswer = storedHash(db, stored, hash);
  if (hash && storedAnswer && hash !== storedAnswer) {
    throw new ServiceError(409, `Assignment ${input.externalId} was imported before with a different answer; the stored answer is kept`);
  }
  const statusChanged = stored.status !== input.status;
  if (statusChanged) setCrowdAssignmentStatus(db, stored.id, input.status);
  // An assignment first seen rejected and later approved (a reversed rejection) now brings its label.
  if (payload && hash && stored.labelId === null) {
    if (!studyOpen) throw closed(input.studyId);
    const written = storeLabel(db, input, stored.annotatorId, payload);
    setCrowdAssignmentLabel(db, stored.id, written.labelId, hash);
    return { kind: "stored", ...written };
  }
  return { kind: "unchanged", statusChanged };
}

function recordNew(db: Db, input: CrowdAssignmentInput, annotatorId: number, payload: LabelPayload | null, hash: string | null, studyOpen: boolean): CrowdAssignmentOutcome {
  if (!studyOpen) throw closed(input.studyId);
  const written = payload ? storeLabel(db, input, annotatorId, payload) : null;
  insertCrowdAssignment(db, {
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
  });
  return written ? { kind: "stored", ...written } : { kind: "rejected" };
}

/**
 * Stores one crowd assignment and its label. Idempotent on (channel, externalId): the same
 * answer again changes at most the status; a different answer or item is refused (409), never
 * overwritten. Runs in its own transaction, or as a savepoint inside the caller's.
 */
export function recordCrowdAssignment(db: Db, input: CrowdAssignmentInput): CrowdAssignmentOutcome {
  return writeTransaction(db, (): CrowdAssignmentOutcome => {
    const studyOpen = studyOrNotFound(db, input.studyId).status === "open";
    const stored = findCrowdAssignment(db, input.channel, input.externalId);
    if (stored && stored.studyItemId !== input.itemId) {
      throw new ServiceError(409, `Assignment ${input.externalId} was stored for item ${stored.studyItemId}, not item ${input.itemId}`);
    }
    const annotatorId = stored?.annotatorId ?? findOrCreateCrowdWorker(db, input.channel, input.workerId);
    // A rejected assignment's answer is never used, so it need not be valid.
    const payload = input.status === "rejected" ? null : validatePayload(db, input.itemId, input.studyId, annotatorId, input.payload);
    const hash = payload ? payloadHash(payload) : null;
    return stored ? updateStored(db, input, stored, payload, hash, studyOpen) : recordNew(db, input, annotatorId, payload, hash, studyOpen);
  });
}

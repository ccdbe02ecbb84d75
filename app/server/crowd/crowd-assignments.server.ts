/**
 * Paid crowd work as the channels report it. One row per MTurk assignment (from a results file,
 * an ExternalQuestion submit, or `mturk sync`) or Prolific session, keyed by the channel's id
 * for it, so the same assignment is stored once however often it arrives. The label it carries
 * goes through the same validation and append-only revisions as a label from the web task.
 */
import { createHash } from "node:crypto";
import type { Db } from "../db.server.ts";
import { findOrCreateCrowdWorker, type CrowdChannel } from "../annotation/accounts.server.ts";
import { ServiceError, notFound } from "../http/errors.server.ts";
import { validatePayload, writeLabelRevision } from "../annotation/labels.server.ts";

export const CROWD_ASSIGNMENT_STATUSES = ["accepted", "submitted", "approved", "rejected"] as const;
export type CrowdAssignmentStatus = (typeof CROWD_ASSIGNMENT_STATUSES)[number];
export type CrowdSource = "batch-import" | "external-question" | "sync" | "prolific";

export interface CrowdAssignmentInput {
  channel: Exclude<CrowdChannel, "link">;
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

/** What is stored for one channel assignment: enough to check a resubmit against it. */
export interface StoredCrowdAssignment {
  id: number;
  studyId: number;
  studyItemId: number | null;
  annotatorId: number;
  labelId: number | null;
  payloadHash: string | null;
  status: CrowdAssignmentStatus;
}

export function payloadHash(payload: unknown): string {
  return createHash("sha256").update(JSON.stringify(payload)).digest("hex");
}

export function findCrowdAssignment(db: Db, channel: string, externalId: string): StoredCrowdAssignment | undefined {
  return db.$client
    .prepare(
      `SELECT id, study_id AS studyId, study_item_id AS studyItemId, annotator_id AS annotatorId, label_id AS labelId, payload_hash AS payloadHash, status
       FROM crowd_assignments WHERE channel = ? AND external_id = ?`,
    )
    .get(channel, externalId) as StoredCrowdAssignment | undefined;
}

/** Records the status the channel now reports (e.g. approved after a sync). */
export function setCrowdAssignmentStatus(db: Db, id: number, status: CrowdAssignmentStatus): void {
  db.$client.prepare(`UPDATE crowd_assignments SET status = ? WHERE id = ?`).run(status, id);
}

/** Marks the annotator's assignment on the item submitted, creating it when the channel handed out the work. */
function markAssignmentSubmitted(db: Db, itemId: number, annotatorId: number, at: string): void {
  db.$client
    .prepare(
      `INSERT INTO assignments (study_item_id, annotator_id, status, leased_at, lease_expires_at, submitted_at) VALUES (?, ?, 'submitted', ?, ?, ?)
       ON CONFLICT (study_item_id, annotator_id) DO UPDATE SET status = 'submitted', submitted_at = coalesce(submitted_at, excluded.submitted_at)`,
    )
    .run(itemId, annotatorId, at, at, at);
}

/**
 * Stores one crowd assignment and its label. Idempotent on (channel, externalId): the same
 * answer again changes at most the status; a different answer or item is refused (409), never
 * overwritten. Runs in its own transaction, or as a savepoint inside the caller's.
 */
export function recordCrowdAssignment(db: Db, input: CrowdAssignmentInput): CrowdAssignmentOutcome {
  const sqlite = db.$client;
  const run = sqlite.transaction((): CrowdAssignmentOutcome => {
    const study = sqlite.prepare(`SELECT status FROM studies WHERE id = ?`).get(input.studyId) as { status: string } | undefined;
    if (!study) throw notFound(`Study ${input.studyId}`);
    const stored = findCrowdAssignment(db, input.channel, input.externalId);
    if (stored && stored.studyItemId !== input.itemId) {
      throw new ServiceError(409, `Assignment ${input.externalId} was stored for item ${stored.studyItemId}, not item ${input.itemId}`);
    }
    const rejected = input.status === "rejected";
    // A rejected assignment's answer is never used, so it need not be valid.
    const annotatorId = stored?.annotatorId ?? findOrCreateCrowdWorker(db, input.channel, input.workerId);
    const payload = rejected ? null : validatePayload(db, input.itemId, input.studyId, annotatorId, input.payload);
    const hash = payload ? payloadHash(payload) : null;

    if (stored) {
      if (hash && stored.payloadHash && hash !== stored.payloadHash) {
        throw new ServiceError(409, `Assignment ${input.externalId} was imported before with a different answer; the stored answer is kept`);
      }
      const statusChanged = stored.status !== input.status;
      if (statusChanged) setCrowdAssignmentStatus(db, stored.id, input.status);
      // An assignment first seen rejected and later approved (a reversed rejection) now brings its label.
      if (payload && stored.labelId === null) {
        if (study.status !== "open") throw new ServiceError(409, `Study ${input.studyId} is closed; reopen it to add labels`);
        const at = input.submittedAt ?? new Date().toISOString();
        markAssignmentSubmitted(db, input.itemId, annotatorId, at);
        const written = writeLabelRevision(db, input.itemId, annotatorId, payload, null, input.secondsOnTask);
        sqlite.prepare(`UPDATE crowd_assignments SET label_id = ?, payload_hash = ? WHERE id = ?`).run(written.labelId, hash, stored.id);
        return { kind: "stored", ...written };
      }
      return { kind: "unchanged", statusChanged };
    }

    if (study.status !== "open") throw new ServiceError(409, `Study ${input.studyId} is closed; reopen it to add labels`);
    let outcome: CrowdAssignmentOutcome = { kind: "rejected" };
    let labelId: number | null = null;
    if (payload) {
      markAssignmentSubmitted(db, input.itemId, annotatorId, input.submittedAt ?? new Date().toISOString());
      const written = writeLabelRevision(db, input.itemId, annotatorId, payload, null, input.secondsOnTask);
      labelId = written.labelId;
      outcome = { kind: "stored", ...written };
    }
    sqlite
      .prepare(
        `INSERT INTO crowd_assignments (channel, external_id, external_group_id, study_id, study_item_id, annotator_id, label_id, payload_hash, status, reward_usd, work_seconds, accepted_at, submitted_at, source)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        input.channel,
        input.externalId,
        input.externalGroupId,
        input.studyId,
        input.itemId,
        annotatorId,
        labelId,
        hash,
        input.status,
        input.rewardUsd,
        input.secondsOnTask,
        input.acceptedAt,
        input.submittedAt,
        input.source,
      );
    return outcome;
  });
  return run.immediate();
}

export interface CrowdAssignmentRow {
  id: number;
  channel: string;
  externalId: string;
  externalGroupId: string | null;
  studyItemId: number | null;
  annotatorId: number;
  workerId: string;
  labelId: number | null;
  status: CrowdAssignmentStatus;
  rewardUsd: number | null;
  workSeconds: number | null;
  decision: "approve" | "reject" | null;
  decisionReason: string | null;
}

export function listCrowdAssignments(db: Db, studyId: number, channel?: string): CrowdAssignmentRow[] {
  return db.$client
    .prepare(
      `SELECT c.id, c.channel, c.external_id AS externalId, c.external_group_id AS externalGroupId, c.study_item_id AS studyItemId, c.annotator_id AS annotatorId,
              a.external_id AS workerId, c.label_id AS labelId, c.status, c.reward_usd AS rewardUsd, c.work_seconds AS workSeconds, c.decision, c.decision_reason AS decisionReason
       FROM crowd_assignments c JOIN annotators a ON a.id = c.annotator_id
       WHERE c.study_id = ? AND (? IS NULL OR c.channel = ?) ORDER BY c.id`,
    )
    .all(studyId, channel ?? null, channel ?? null) as CrowdAssignmentRow[];
}

/**
 * Which crowd assignments to approve and which to reject, decided from gold items: an assignment
 * on a gold item the worker got wrong is rejected, and so is every assignment of a worker the
 * study flags (gold accuracy below its threshold over enough gold items). Everything else is
 * approved. The reason is what the worker reads on MTurk, so it says what went wrong. Only work
 * MTurk has confirmed is judged or decided: a pending answer (its worker id unverified) could be
 * anyone's, so it neither earns nor costs the worker it names anything.
 */
import { flagAnnotators, goldAccuracy, goldChecks } from "../../domain/validation/index.ts";
import type { Db } from "../db.server.ts";
import { goldFor } from "../../domain/validation/gold-items.ts";
import { loadItems, loadLatestLabels } from "../annotation/dashboard-data.server.ts";
import { studyOrNotFound } from "./crowd-study.server.ts";
import { parseStudyConfig } from "../../domain/study-config.ts";
import {
  listCrowdAssignments,
  setCrowdAssignmentDecision,
  type CrowdAssignmentRow,
} from "../models/crowd-assignment.server.ts";
import { transact } from "../db-transaction.server.ts";

export interface ReviewDecision {
  crowdAssignmentId: number;
  externalId: string;
  workerId: string;
  decision: "approve" | "reject";
  /** Shown to the worker for a rejection; null for approvals. */
  reason: string | null;
}

const FAILED_GOLD_REASON =
  "This task was a check question with a known answer, and the answer given was outside the accepted range. We cannot accept work that misses these checks.";

function flaggedReason(passed: number, attempted: number, threshold: number): string {
  return `Your answers matched ${passed} of ${attempted} check questions with known answers in this study; we accept work at ${Math.round(threshold * 100)}% or above, so we cannot accept this assignment.`;
}

/**
 * Decisions for the study's confirmed assignments on a channel. By default only assignments still
 * waiting for review (status submitted) are decided; the channel has already settled the others.
 */
export async function reviewDecisions(
  db: Db,
  studyId: number,
  channel: string,
  options: { includeReviewed?: boolean } = {},
): Promise<ReviewDecision[]> {
  const study = await studyOrNotFound(db, studyId);
  const config = parseStudyConfig(study.config);
  const items = await loadItems(db, [studyId]);
  const labels = (await loadLatestLabels(db, [studyId], "stored")).filter((l) => l.status !== "pending");
  const gold = goldFor(items);
  const checks = goldChecks(gold, labels);
  const failed = new Set(checks.filter((c) => !c.passed).map((c) => `${c.itemId}:${c.annotatorId}`));
  const accuracy = goldAccuracy(gold, labels);
  const flagged = new Set(flagAnnotators(accuracy, config.goldThreshold, config.goldMinAttempted));
  const byAnnotator = new Map(accuracy.map((a) => [a.annotatorId, a]));

  const decide = (row: CrowdAssignmentRow): ReviewDecision => {
    const annotator = String(row.annotatorId);
    const base = { crowdAssignmentId: row.id, externalId: row.externalId, workerId: row.workerId };
    if (flagged.has(annotator)) {
      const a = byAnnotator.get(annotator);
      return {
        ...base,
        decision: "reject",
        reason: flaggedReason(a?.passed ?? 0, a?.attempted ?? 0, config.goldThreshold),
      };
    }
    if (row.studyItemId !== null && failed.has(`${row.studyItemId}:${annotator}`))
      return { ...base, decision: "reject", reason: FAILED_GOLD_REASON };
    return { ...base, decision: "approve", reason: null };
  };
  return (await listCrowdAssignments(db, studyId, channel))
    .filter((row) => row.confirmedAt !== null && (options.includeReviewed || row.status === "submitted"))
    .map(decide);
}

/** Records decisions on the assignments (what was decided, why, and when). */
export async function recordDecisions(db: Db, decisions: readonly ReviewDecision[], at = new Date()): Promise<void> {
  await transact(db, async (db) => {
    for (const d of decisions)
      await setCrowdAssignmentDecision(db, d.crowdAssignmentId, d.decision, d.reason, at.toISOString());
  });
}

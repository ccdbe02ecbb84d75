/**
 * `mturk sync`: brings the assignments of a study's published HITs in line with MTurk and settles
 * the ones waiting for review. An assignment the app never saw (the worker's browser did not
 * reach us, or another database published the HIT) is imported from its Answer XML; an answer
 * the task page stored stays pending until MTurk lists its assignment here for the same worker and
 * HIT, which confirms it (counted within k, else surplus); statuses follow MTurk's; submitted work is approved, or
 * rejected with a reason when it failed a gold item (review.server.ts decides). A dry run reads from MTurk but writes
 * and decides nothing.
 */
import {
  ApproveAssignmentCommand,
  ListAssignmentsForHITCommand,
  RejectAssignmentCommand,
  type Assignment,
  type MTurkClient,
} from "@aws-sdk/client-mturk";
import { labelFromAnswerXml } from "../../domain/crowd/answer-xml.ts";
import type { Db } from "../../server/db.server.ts";
import { ServiceError } from "../../server/http/errors.server.ts";
import { studyOrNotFound } from "../../server/crowd/crowd-study.server.ts";
import { MTURK_STATUSES } from "../../domain/crowd/mturk-results.ts";
import {
  findCrowdAssignment,
  setCrowdAssignmentStatus,
  type CrowdAssignmentStatus,
} from "../../server/models/crowd-assignment.server.ts";
import { hitsOfStudy, type StoredHit } from "../../server/models/mturk-hit.server.ts";
import { recordCrowdAssignment } from "../../server/crowd/record-assignment.server.ts";
import {
  assertEnvironment,
  checkedSend,
  environmentOf,
  isMissingCredentials,
  MturkEndpointError,
  type MturkEnvironment,
} from "./client.server.ts";
import { recordDecisions, reviewDecisions, type ReviewDecision } from "../../server/crowd/review.server.ts";
import { transact } from "../../server/db-transaction.server.ts";

export interface SyncOptions {
  studyId: number;
  production: boolean;
  /** Read MTurk and report what would change and what would be decided; write and send nothing. */
  dryRun?: boolean;
}

/** An assignment that could not be taken in; reported, never thrown. */
export interface SyncProblem {
  assignmentId: string;
  hitId: string;
  itemId: number;
  workerId: string | null;
  message: string;
}

export interface SyncDecision extends ReviewDecision {
  itemId: number | null;
  /** Sent to MTurk and recorded; false in a dry run or when MTurk refused it. */
  sent: boolean;
  /** MTurk's refusal, when it refused. */
  error: string | null;
}

export interface SyncSummary {
  environment: MturkEnvironment;
  dryRun: boolean;
  studyId: number;
  hits: number;
  assignmentsSeen: number;
  /** Assignments (and labels) the database did not have yet. */
  imported: number;
  /** Pending assignments (ExternalQuestion answers) MTurk now lists for the same worker and HIT: confirmed. */
  confirmed: number;
  /** Labels imported or confirmed here that found their item's k already counted: stored as surplus. */
  surplus: number;
  statusesUpdated: number;
  problems: SyncProblem[];
  decisions: SyncDecision[];
  approved: number;
  rejected: number;
  failed: number;
}

interface Listed {
  hit: StoredHit;
  assignment: Assignment;
}

const STATUS_OF: Record<string, Exclude<CrowdAssignmentStatus, "accepted">> = MTURK_STATUSES;

async function listAssignments(client: MTurkClient, production: boolean, hit: StoredHit): Promise<Assignment[]> {
  const all: Assignment[] = [];
  let nextToken: string | undefined;
  do {
    const page = await checkedSend(client, production, (c) =>
      c.send(
        new ListAssignmentsForHITCommand({
          HITId: hit.hitId,
          AssignmentStatuses: ["Submitted", "Approved", "Rejected"],
          MaxResults: 100,
          NextToken: nextToken,
        }),
      ),
    );
    all.push(...(page.Assignments ?? []));
    nextToken = page.NextToken;
  } while (nextToken);
  return all;
}

const iso = (d: Date | undefined): string | null =>
  d instanceof Date && !Number.isNaN(d.getTime()) ? d.toISOString() : null;

function workSeconds(a: Assignment): number | null {
  if (!(a.AcceptTime instanceof Date) || !(a.SubmitTime instanceof Date)) return null;
  const seconds = (a.SubmitTime.getTime() - a.AcceptTime.getTime()) / 1000;
  return seconds >= 0 && seconds <= 86_400 ? seconds : null;
}

function describe(err: unknown): string {
  if (err instanceof ServiceError && err.problems.length)
    return `${err.message}: ${err.problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`;
  return err instanceof Error ? err.message : String(err);
}

type Taken = "imported" | "confirmed" | "status" | "same";

/** Counts what taking one assignment in did. */
function tally(
  summary: SyncSummary,
  result: { taken: Taken; statusChanged: boolean; surplus: boolean } | SyncProblem,
): void {
  if (!("taken" in result)) {
    summary.problems.push(result);
    return;
  }
  if (result.taken === "imported") summary.imported++;
  if (result.taken === "confirmed") summary.confirmed++;
  if (result.taken === "status" || (result.taken === "confirmed" && result.statusChanged)) summary.statusesUpdated++;
  if (result.surplus) summary.surplus++;
}

/**
 * Takes one listed assignment in: MTurk's own report, so what it brings is confirmed, and a
 * pending assignment stored from the task page is confirmed when MTurk lists it for the same
 * worker and HIT (another worker or HIT leaves it pending, reported). Expected failures (bad
 * answer, conflicting answer, mismatch) become problems so one bad assignment never stops the rest.
 */
async function takeIn(
  db: Db,
  studyId: number,
  { hit, assignment: a }: Listed,
): Promise<{ taken: Taken; statusChanged: boolean; surplus: boolean } | SyncProblem> {
  const assignmentId = a.AssignmentId ?? "";
  const problem = (message: string): SyncProblem => ({
    assignmentId,
    hitId: hit.hitId,
    itemId: hit.itemId,
    workerId: a.WorkerId ?? null,
    message,
  });
  if (!assignmentId || !a.WorkerId) return problem("MTurk listed an assignment without AssignmentId or WorkerId");
  const status = STATUS_OF[a.AssignmentStatus ?? ""];
  if (!status) return problem(`unexpected assignment status "${a.AssignmentStatus}"`);

  const stored = await findCrowdAssignment(db, "mturk", assignmentId);
  if (stored && stored.studyItemId !== hit.itemId)
    return problem(`stored for item ${stored.studyItemId}, but its HIT is for item ${hit.itemId}; left as it is`);
  // Confirmed with a stored label, or a rejection, needs nothing from the answer: only the status may change.
  if (stored && stored.confirmedAt !== null && (stored.labelId !== null || status === "rejected")) {
    if (stored.status === status) return { taken: "same", statusChanged: false, surplus: false };
    await setCrowdAssignmentStatus(db, stored.id, status);
    return { taken: "status", statusChanged: true, surplus: false };
  }
  let payload: unknown = null;
  if (status !== "rejected") {
    const label = labelFromAnswerXml(a.Answer);
    if (!label.ok) return problem(stored ? `${label.message}; the stored answer stays pending` : label.message);
    payload = label.payload;
  }
  try {
    const outcome = await recordCrowdAssignment(db, {
      channel: "mturk",
      externalId: assignmentId,
      externalGroupId: hit.hitId,
      studyId,
      itemId: hit.itemId,
      workerId: a.WorkerId,
      status,
      payload,
      secondsOnTask: workSeconds(a),
      rewardUsd: hit.rewardUsd,
      acceptedAt: iso(a.AcceptTime),
      submittedAt: iso(a.SubmitTime),
      source: "sync",
    });
    if (outcome.kind === "mismatch") return problem(outcome.message);
    const surplus = (outcome.kind === "stored" || outcome.kind === "confirmed") && outcome.labelStatus === "surplus";
    if (!stored) return { taken: "imported", statusChanged: false, surplus };
    if (outcome.kind === "confirmed") return { taken: "confirmed", statusChanged: outcome.statusChanged, surplus };
    const changed = !(outcome.kind === "unchanged" && !outcome.statusChanged);
    return { taken: changed ? "status" : "same", statusChanged: changed, surplus };
  } catch (err) {
    if (err instanceof ServiceError) return problem(`the answer was not stored: ${describe(err)}`);
    throw err;
  }
}

/** Pulls the study's assignments from MTurk, stores what is missing, and approves or rejects submitted work. */
export async function syncStudy(db: Db, client: MTurkClient, options: SyncOptions): Promise<SyncSummary> {
  const { studyId, production } = options;
  const environment = environmentOf(production);
  const dryRun = options.dryRun === true;
  await studyOrNotFound(db, studyId);
  const hits = await hitsOfStudy(db, studyId, environment);
  const summary: SyncSummary = {
    environment,
    dryRun,
    studyId,
    hits: hits.length,
    assignmentsSeen: 0,
    imported: 0,
    confirmed: 0,
    surplus: 0,
    statusesUpdated: 0,
    problems: [],
    decisions: [],
    approved: 0,
    rejected: 0,
    failed: 0,
  };
  if (hits.length === 0) return summary;
  await assertEnvironment(client, production);

  const listed: Listed[] = [];
  for (const hit of hits)
    for (const assignment of await listAssignments(client, production, hit)) listed.push({ hit, assignment });
  summary.assignmentsSeen = listed.length;
  const itemOf = new Map(listed.map((l) => [l.assignment.AssignmentId, l.hit.itemId]));

  // All database work in one transaction: a dry run rolls it back after deciding. It may run again (PostgreSQL), so
  // the summary counts what its last run took in.
  const { taken, pending } = await transact(
    db,
    async (db) => {
      const taken: Awaited<ReturnType<typeof takeIn>>[] = [];
      for (const entry of listed) taken.push(await takeIn(db, studyId, entry));
      // Only this environment's assignments: a batch imported from the requester site is not ours to settle here.
      const decisions = await reviewDecisions(db, studyId, "mturk");
      return { taken, pending: decisions.filter((d) => itemOf.has(d.externalId)) };
    },
    { dryRun },
  );
  for (const result of taken) tally(summary, result);

  for (const decision of pending) {
    const result: SyncDecision = {
      ...decision,
      itemId: itemOf.get(decision.externalId) ?? null,
      sent: false,
      error: null,
    };
    summary.decisions.push(result);
    if (dryRun) continue;
    try {
      if (decision.decision === "approve") {
        await checkedSend(client, production, (c) =>
          c.send(new ApproveAssignmentCommand({ AssignmentId: decision.externalId })),
        );
      } else {
        const feedback = decision.reason ?? "The work did not pass the study's checks.";
        await checkedSend(client, production, (c) =>
          c.send(new RejectAssignmentCommand({ AssignmentId: decision.externalId, RequesterFeedback: feedback })),
        );
      }
    } catch (err) {
      if (err instanceof MturkEndpointError || isMissingCredentials(err)) throw err;
      result.error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      summary.failed++;
      continue;
    }
    await transact(db, async (db) => {
      await recordDecisions(db, [decision]);
      await setCrowdAssignmentStatus(
        db,
        decision.crowdAssignmentId,
        decision.decision === "approve" ? "approved" : "rejected",
      );
    });
    result.sent = true;
    if (decision.decision === "approve") summary.approved++;
    else summary.rejected++;
  }
  return summary;
}

/**
 * `socrates mturk import`: a batch results file from MTurk's requester site into labels, all or
 * nothing. Every row is read, looked up and mapped to a label first; then all rows are written in
 * one IMMEDIATE transaction through the crowd assignment store (the web task's validation,
 * idempotent on AssignmentId). Any problem anywhere — a bad cell, an unknown item, an invalid
 * answer, a conflict with what was imported before — is reported with its line and nothing is
 * kept. The same transaction decides the review (gold failures and flagged workers rejected),
 * so the review file reflects exactly the labels just stored.
 *
 * The file is MTurk's own record, so its rows are confirmed work: a label counts while its item
 * has fewer than k counted labels, and is stored as surplus beyond that (counted in the summary).
 * A pending answer stored from the task page under the same AssignmentId is confirmed when the
 * row names the same worker and HIT; otherwise it stays pending and is listed as a mismatch.
 */
import { type AnswerScenario, ITEM_ID_FIELD } from "../../domain/crowd/answer-fields.ts";
import {
  formatResultsProblem,
  MTURK_STATUSES,
  parseMturkResults,
  type MturkResultRow,
  type ResultsProblem,
} from "../../domain/crowd/mturk-results.ts";
import { reviewFileCsv, type ReviewMark } from "../../domain/crowd/mturk-review.ts";
import { type LabelPayload, taskType } from "../../task-types/registry.ts";
import type { Db } from "../../server/db.server.ts";
import { ServiceError } from "../../server/http/errors.server.ts";
import { loadItem, playedScenarioOfRun, snippetContext } from "../../server/annotation/task-view.server.ts";
import { crowdWorkerCount } from "../../server/models/annotator.server.ts";
import { findCrowdAssignment, listCrowdAssignments } from "../../server/models/crowd-assignment.server.ts";
import type { ItemRow } from "../../server/models/study.server.ts";
import { studyOrNotFound } from "../../server/crowd/crowd-study.server.ts";
import { recordCrowdAssignment, type CrowdAssignmentOutcome } from "../../server/crowd/record-assignment.server.ts";
import { recordDecisions, reviewDecisions, type ReviewDecision } from "../../server/crowd/review.server.ts";
import { transact } from "../../server/db-transaction.server.ts";

const CHANNEL = "mturk" as const;

export interface MturkImportOptions {
  /** The results file's text. */
  text: string;
  /** How problems name the file (the path as the user gave it). */
  fileName: string;
  /** Check and count everything, then roll back: nothing is stored and no decision recorded. */
  dryRun?: boolean;
}

export interface MturkImportSummary {
  dryRun: boolean;
  /** Assignments (data records) in the file. */
  rows: number;
  /** New labels. */
  stored: number;
  /** New revisions of a label the worker already had on the item. */
  revised: number;
  /** Accepted assignments imported before with the same answer. */
  unchanged: number;
  /** Rejected on MTurk: recorded, their answers not used. */
  rejectedSkipped: number;
  /** Assignments seen before whose status MTurk now reports differently. */
  statusUpdated: number;
  /** MTurk workers seen for the first time (new crowd annotators). */
  workersCreated: number;
  /** Pending answers (stored from the task page) the file confirms for the same worker and HIT. */
  confirmed: number;
  /**
   * New or confirmed labels that found their item's k (labels per item) already counted: stored as
   * surplus, left out of the statistics unless the study counts surplus.
   */
  surplus: number;
  /** Pending answers the file reports for another worker, HIT, item or answer: left pending, listed. */
  mismatched: { line: number; assignmentId: string; message: string }[];
}

export interface MturkReviewFile {
  /** The file to upload on the requester site, every field quoted as MTurk writes it. */
  csv: string;
  approvals: number;
  rejections: number;
  /** Rows left blank: already approved or rejected on MTurk. */
  untouched: number;
}

export interface MturkImportResult {
  summary: MturkImportSummary;
  review: MturkReviewFile;
}

/** The file was refused; `problems` lists every one, each with its line. Nothing was written. */
export class MturkImportError extends Error {
  constructor(
    readonly file: string,
    readonly problems: ResultsProblem[],
  ) {
    const n = problems.length;
    super(
      `${file}: import refused, nothing was written (${n} problem${n === 1 ? "" : "s"}):\n${problems.map((p) => `  ${formatResultsProblem(file, p)}`).join("\n")}`,
    );
    this.name = "MturkImportError";
  }
}

interface PreparedRow {
  row: MturkResultRow;
  /** The label; null for a rejected row. */
  payload: LabelPayload | null;
}

/** Looks the row's item up and turns its answers into a label payload, or says why not. */
async function prepareRow(
  db: Db,
  studyId: number,
  row: MturkResultRow,
  scenarioOfRun: (runId: string) => Promise<AnswerScenario>,
): Promise<{ ok: true; prepared: PreparedRow } | { ok: false; problems: ResultsProblem[] }> {
  const problem = (path: string, message: string): ResultsProblem => ({
    line: row.line,
    assignmentId: row.assignmentId,
    path,
    message,
  });
  let item: ItemRow;
  try {
    item = await loadItem(db, studyId, row.itemId);
  } catch (err) {
    if (err instanceof ServiceError)
      return {
        ok: false,
        problems: [problem("Input.item_id", `item ${row.itemId} is not an item of study ${studyId}`)],
      };
    throw err;
  }
  if (row.answers === null) return { ok: true, prepared: { row, payload: null } };
  const result = await taskType(item.kind).mturk.payloadFromAnswers(
    row.answers,
    async () => await scenarioOfRun((await snippetContext(db, item.snippetId as number)).runId),
  );
  if (!result.ok) return { ok: false, problems: result.problems.map((p) => problem(p.path, p.message)) };
  // The template's hidden field must name the same item as the Input column (a mixed-up batch otherwise stores labels
  // on the wrong item).
  if (result.itemId !== null && result.itemId !== String(row.itemId)) {
    return {
      ok: false,
      problems: [
        problem(
          `Answer.taskAnswers ${ITEM_ID_FIELD}`,
          `names item ${result.itemId}, but Input.item_id is ${row.itemId}`,
        ),
      ],
    };
  }
  return { ok: true, prepared: { row, payload: result.payload } };
}

/** An older download still says Submitted for work since approved or rejected; the later status stands. */
async function statusToRecord(db: Db, row: MturkResultRow): Promise<"submitted" | "approved" | "rejected"> {
  const fromFile = MTURK_STATUSES[row.status];
  const stored = (await findCrowdAssignment(db, CHANNEL, row.assignmentId))?.status;
  return fromFile === "submitted" && (stored === "approved" || stored === "rejected") ? stored : fromFile;
}

function problemsOf(err: ServiceError, row: MturkResultRow): ResultsProblem[] {
  const at = { line: row.line, assignmentId: row.assignmentId };
  if (err.problems.length) return err.problems.map((p) => ({ ...at, path: p.path || "label", message: p.message }));
  return [{ ...at, path: "AssignmentId", message: err.message }];
}

function emptySummary(dryRun: boolean, rows: number): MturkImportSummary {
  return {
    dryRun,
    rows,
    stored: 0,
    revised: 0,
    unchanged: 0,
    rejectedSkipped: 0,
    statusUpdated: 0,
    workersCreated: 0,
    confirmed: 0,
    surplus: 0,
    mismatched: [],
  };
}

/** Counts one row's outcome in the summary. */
function tally(summary: MturkImportSummary, row: MturkResultRow, outcome: CrowdAssignmentOutcome): void {
  if (row.status === "Rejected") summary.rejectedSkipped++;
  if (outcome.kind === "stored") {
    if (outcome.revision === 1) summary.stored++;
    else summary.revised++;
  } else if (outcome.kind === "unchanged") {
    if (row.status !== "Rejected") summary.unchanged++;
    if (outcome.statusChanged) summary.statusUpdated++;
  } else if (outcome.kind === "confirmed") {
    summary.confirmed++;
    if (outcome.statusChanged) summary.statusUpdated++;
  } else if (outcome.kind === "mismatch") {
    summary.mismatched.push({ line: row.line, assignmentId: row.assignmentId, message: outcome.message });
  }
  if ((outcome.kind === "stored" || outcome.kind === "confirmed") && outcome.labelStatus === "surplus")
    summary.surplus++;
}

/** Approve/Reject marks for the rows MTurk still has waiting for review, from the study's gold review. */
function reviewMarks(
  rows: readonly MturkResultRow[],
  decisions: ReadonlyMap<string, ReviewDecision>,
): Map<number, ReviewMark> {
  const marks = new Map<number, ReviewMark>();
  rows.forEach((row, i) => {
    const d = row.status === "Submitted" ? decisions.get(row.assignmentId) : undefined;
    if (d)
      marks.set(i, d.decision === "reject" ? { decision: "reject", reason: d.reason ?? "" } : { decision: "approve" });
  });
  return marks;
}

export async function importMturkResults(
  db: Db,
  studyId: number,
  options: MturkImportOptions,
): Promise<MturkImportResult> {
  const study = await studyOrNotFound(db, studyId);
  if (study.pool !== "crowd")
    throw new ServiceError(409, `Study ${studyId} is an ${study.pool} study; only crowd studies take MTurk results`);
  const parsed = parseMturkResults(options.text, studyId);
  const fileProblems: ResultsProblem[] = [...parsed.problems];

  const scenarios = new Map<string, AnswerScenario>();
  const scenarioOfRun = async (runId: string): Promise<AnswerScenario> => {
    if (!scenarios.has(runId)) scenarios.set(runId, (await playedScenarioOfRun(db, runId)).body);
    return scenarios.get(runId)!;
  };
  const prepared: PreparedRow[] = [];
  for (const row of parsed.rows) {
    const result = await prepareRow(db, studyId, row, scenarioOfRun);
    if (result.ok) prepared.push(result.prepared);
    else fileProblems.push(...result.problems);
  }

  return await transact(
    db,
    async (db): Promise<MturkImportResult> => {
      const workersBefore = await crowdWorkerCount(db, CHANNEL);
      const summary = emptySummary(Boolean(options.dryRun), parsed.rows.length);
      // Begun afresh on each run of the work (PostgreSQL may run it again): a problem is named once.
      const problems = [...fileProblems];
      for (const { row, payload } of prepared) {
        try {
          const outcome = await recordCrowdAssignment(db, {
            channel: CHANNEL,
            externalId: row.assignmentId,
            externalGroupId: row.hitId,
            studyId,
            itemId: row.itemId,
            workerId: row.workerId,
            status: await statusToRecord(db, row),
            payload,
            secondsOnTask: row.workSeconds,
            rewardUsd: row.rewardUsd,
            acceptedAt: row.acceptedAt,
            submittedAt: row.submittedAt,
            source: "batch-import",
          });
          tally(summary, row, outcome);
        } catch (err) {
          // Each row is a savepoint: its failure is undone at once, and the rest are still checked.
          if (!(err instanceof ServiceError)) throw err;
          problems.push(...problemsOf(err, row));
        }
      }
      if (problems.length)
        throw new MturkImportError(
          options.fileName,
          [...problems].sort((a, b) => a.line - b.line),
        );
      summary.workersCreated = (await crowdWorkerCount(db, CHANNEL)) - workersBefore;

      const inFile = new Set(parsed.rows.map((r) => r.assignmentId));
      const decisions = (await reviewDecisions(db, studyId, CHANNEL)).filter((d) => inFile.has(d.externalId));
      const marks = reviewMarks(parsed.rows, new Map(decisions.map((d) => [d.externalId, d])));
      const rejections = [...marks.values()].filter((m) => m.decision === "reject").length;
      const review: MturkReviewFile = {
        csv: reviewFileCsv(
          parsed.header,
          parsed.rows.map((r) => r.fields),
          marks,
        ),
        approvals: marks.size - rejections,
        rejections,
        untouched: parsed.rows.length - marks.size,
      };
      const result = { summary, review };
      // Only decisions that differ from the stored ones are written, so a repeated import changes nothing.
      const current = new Map((await listCrowdAssignments(db, studyId, CHANNEL)).map((a) => [a.id, a]));
      await recordDecisions(
        db,
        decisions.filter((d) => {
          const stored = current.get(d.crowdAssignmentId);
          return stored?.decision !== d.decision || stored?.decisionReason !== d.reason;
        }),
      );
      return result;
    },
    { dryRun: options.dryRun },
  );
}

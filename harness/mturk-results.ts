/**
 * Writes a batch results file exactly as MTurk's requester site downloads it (Manage → Results →
 * Download CSV): every field quoted, MTurk's fixed columns in their order, then `Input.<var>` for
 * every input-CSV column, `Answer.taskAnswers` (crowd-form's JSON array string), `Approve`,
 * `Reject`. Built from an input CSV (the export's) and the workers' answers.
 */
import { choiceField } from "../app/task-types/ab-reactiveness/answer-fields.ts";
import {
  CROWD_SPECIAL_POSITIONS,
  positionField,
  scoreField,
} from "../app/task-types/consensus-snippet/answer-fields.ts";
import { ITEM_ID_FIELD } from "../app/domain/crowd/answer-fields.ts";
import { readFileSync } from "node:fs";
import { parseCsv, toCsv } from "../app/domain/csv.ts";
import { AGREEMENT_SCORES, type ConsensusLabel } from "../app/task-types/consensus-snippet/label.ts";

export const MTURK_FIXED_COLUMNS = [
  "HITId",
  "HITTypeId",
  "Title",
  "Description",
  "Keywords",
  "Reward",
  "CreationTime",
  "MaxAssignments",
  "RequesterAnnotation",
  "AssignmentDurationInSeconds",
  "AutoApprovalDelayInSeconds",
  "Expiration",
  "NumberOfSimilarHITs",
  "LifetimeInSeconds",
  "AssignmentId",
  "WorkerId",
  "AssignmentStatus",
  "AcceptTime",
  "SubmitTime",
  "AutoApprovalTime",
  "ApprovalTime",
  "RejectionTime",
  "RequesterFeedback",
  "WorkTimeInSeconds",
  "LifetimeApprovalRate",
  "Last30DaysApprovalRate",
  "Last7DaysApprovalRate",
] as const;

export interface InputCsv {
  header: string[];
  /** One row per HIT, in header order. */
  rows: string[][];
}

/**
 * Every HIT row of an export, from all its input CSVs (one per number of assignments), put back
 * in study order (`itemOrder`: the study's item ids by position).
 */
export function exportedInput(batches: readonly { file: string }[], itemOrder: readonly number[]): InputCsv {
  const parsed = batches.map((b) => parseCsv(readFileSync(b.file, "utf8")));
  const header = parsed[0].header;
  const at = header.indexOf("item_id");
  const position = new Map(itemOrder.map((id, i) => [id, i]));
  const rows = parsed
    .flatMap((p) => p.records.map((r) => r.fields))
    .sort((a, b) => position.get(Number(a[at]))! - position.get(Number(b[at]))!);
  return { header, rows };
}

export interface WorkerAssignment {
  /** Index of the HIT's row in the input CSV. */
  hit: number;
  workerId: string;
  /** Default: derived from the HIT and the worker (30 upper-case characters, like MTurk's). */
  assignmentId?: string;
  status?: "Submitted" | "Approved" | "Rejected";
  workSeconds?: number;
  /** crowd-form's answer object (written as a one-element JSON array), or the cell's raw text. */
  answers: Record<string, unknown> | string;
}

export interface ResultsOptions {
  reward?: string;
  /** Leave the `Answer.taskAnswers` column out (a template that was not built with crowd-form). */
  withoutTaskAnswers?: boolean;
}

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const PST_HOURS = -8;

/** MTurk's time format, in Pacific standard time: "Mon Nov 23 09:12:45 PST 2026". */
export function mturkTime(date: Date): string {
  const local = new Date(date.getTime() + PST_HOURS * 3_600_000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${DAYS[local.getUTCDay()]} ${MONTHS[local.getUTCMonth()]} ${pad(local.getUTCDate())} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())} PST ${local.getUTCFullYear()}`;
}

/** 30 characters of [0-9A-Z], like MTurk's ids, from a readable seed. */
export function mturkId(prefix: string, seed: string): string {
  const body = (prefix + seed).toUpperCase().replace(/[^0-9A-Z]/g, "");
  return (body + "0".repeat(30)).slice(0, 30);
}

export const BATCH_START = new Date("2026-11-23T17:00:00Z");

export function mturkResultsCsv(
  input: InputCsv,
  assignments: readonly WorkerAssignment[],
  options: ResultsOptions = {},
): string {
  const answerColumns = options.withoutTaskAnswers ? [] : ["Answer.taskAnswers"];
  const header = [
    ...MTURK_FIXED_COLUMNS,
    ...input.header.map((h) => `Input.${h}`),
    ...answerColumns,
    "Approve",
    "Reject",
  ];
  const rows = assignments.map((a, i) => {
    const hitRow = input.rows[a.hit];
    if (!hitRow) throw new Error(`no input row ${a.hit}`);
    const status = a.status ?? "Submitted";
    const seconds = a.workSeconds ?? 120;
    const accept = new Date(BATCH_START.getTime() + i * 600_000);
    const submit = new Date(accept.getTime() + seconds * 1000);
    const reviewedAt = new Date(submit.getTime() + 3_600_000);
    const fixed: Record<(typeof MTURK_FIXED_COLUMNS)[number], string> = {
      HITId: mturkId("3HIT", String(a.hit)),
      HITTypeId: mturkId("3TYPE", "socrates"),
      Title: 'Read a short negotiation, then say "how close" the parties are',
      Description: "Read a few turns, mark positions, and rate agreement from 1 to 5.",
      Keywords: "negotiation, dialogue, rating",
      Reward: options.reward ?? "$0.50",
      CreationTime: mturkTime(BATCH_START),
      MaxAssignments: "3",
      RequesterAnnotation: "BatchId:5123456;OriginalHitTemplateId:928390123;",
      AssignmentDurationInSeconds: "3600",
      AutoApprovalDelayInSeconds: "259200",
      Expiration: mturkTime(new Date(BATCH_START.getTime() + 7 * 86_400_000)),
      NumberOfSimilarHITs: "",
      LifetimeInSeconds: "",
      AssignmentId: a.assignmentId ?? mturkId("3ASG", `${a.hit}X${a.workerId}`),
      WorkerId: a.workerId,
      AssignmentStatus: status,
      AcceptTime: mturkTime(accept),
      SubmitTime: mturkTime(submit),
      AutoApprovalTime: mturkTime(new Date(submit.getTime() + 259_200_000)),
      ApprovalTime: status === "Approved" ? mturkTime(reviewedAt) : "",
      RejectionTime: status === "Rejected" ? mturkTime(reviewedAt) : "",
      RequesterFeedback: status === "Rejected" ? "The answers did not match the text, e.g. topic 1." : "",
      WorkTimeInSeconds: String(seconds),
      LifetimeApprovalRate: "100% (12/12)",
      Last30DaysApprovalRate: "100% (12/12)",
      Last7DaysApprovalRate: "0% (0/0)",
    };
    const answerCell = typeof a.answers === "string" ? a.answers : JSON.stringify([a.answers]);
    return [
      ...MTURK_FIXED_COLUMNS.map((c) => fixed[c]),
      ...hitRow,
      ...(options.withoutTaskAnswers ? [] : [answerCell]),
      "",
      "",
    ];
  });
  // MTurk's own download: every field quoted, no formula guard (the importer reads what workers typed).
  return toCsv(header, rows, { quoteAll: true, verbatim: true });
}

/** Every radio button of a group reported, the chosen one on, as crowd-form does. */
function group(names: string[], chosen: string): Record<string, { on: boolean }> {
  return Object.fromEntries(names.map((n) => [n, { on: n === chosen }]));
}

/** crowd-form's answers for an A/B item. */
export function abAnswers(itemId: number, choice: "A" | "B"): Record<string, unknown> {
  return { ...group([choiceField("A"), choiceField("B")], choiceField(choice)), [ITEM_ID_FIELD]: String(itemId) };
}

export interface ScenarioShape {
  topics: readonly { id: string; options: readonly { label: string }[] }[];
  parties: readonly { id: string }[];
}

/** crowd-form's answers for a snippet item, giving the label's scores and positions. */
export function consensusAnswers(
  itemId: number,
  scenario: ScenarioShape,
  label: ConsensusLabel,
): Record<string, unknown> {
  const answers: Record<string, unknown> = { [ITEM_ID_FIELD]: String(itemId) };
  for (const topic of scenario.topics) {
    const entry = label.topics[topic.id];
    Object.assign(
      answers,
      group(
        AGREEMENT_SCORES.map((s) => scoreField(topic.id, s)),
        scoreField(topic.id, entry.score),
      ),
    );
    for (const party of scenario.parties) {
      const values = [...topic.options.map((o) => o.label), ...CROWD_SPECIAL_POSITIONS];
      Object.assign(
        answers,
        group(
          values.map((v) => positionField(topic.id, party.id, v)),
          positionField(topic.id, party.id, entry.positions[party.id]),
        ),
      );
    }
  }
  return answers;
}

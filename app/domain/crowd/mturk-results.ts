/**
 * MTurk's batch results file ("Download CSV" on the requester site), read into typed rows. Pure:
 * the import (app/crowd-channels/mturk/import.server.ts) looks the items up and stores the labels.
 *
 * Of the `Input.*` columns only `Input.study_id` and `Input.item_id` are read: the others are
 * display text for the worker and may change between template versions.
 */
import { csvObjects, CsvSyntaxError, parseCsv, type ParsedCsv } from "../csv.ts";
import { parseTaskAnswers } from "./answer-fields.ts";

/** Columns the import cannot do without. */
export const REQUIRED_COLUMNS = [
  "HITId",
  "AssignmentId",
  "WorkerId",
  "AssignmentStatus",
  "WorkTimeInSeconds",
  "Input.study_id",
  "Input.item_id",
  "Answer.taskAnswers",
] as const;

export const MTURK_STATUSES = { Submitted: "submitted", Approved: "approved", Rejected: "rejected" } as const;
export type MturkStatus = keyof typeof MTURK_STATUSES;

export interface MturkResultRow {
  /** The file line the record starts on (1 = the header). */
  line: number;
  /** The record's fields as in the file, for writing the review file back. */
  fields: string[];
  hitId: string;
  assignmentId: string;
  workerId: string;
  status: MturkStatus;
  workSeconds: number;
  rewardUsd: number | null;
  /** ISO 8601 when MTurk's time could be read, else the text as written; null when empty. */
  acceptedAt: string | null;
  submittedAt: string | null;
  studyId: number;
  itemId: number;
  /** The worker's answers (one object of field → value); null for a rejected row, whose answer is not used. */
  answers: Record<string, unknown> | null;
}

export interface ResultsProblem {
  /** File line; 1 for problems with the header or the whole file. */
  line: number;
  assignmentId: string | null;
  /** Column (or answer field) the problem is in. */
  path: string;
  message: string;
}

export interface ParsedResults {
  header: string[];
  rows: MturkResultRow[];
  problems: ResultsProblem[];
}

const MONTHS: Record<string, number> = {
  Jan: 0,
  Feb: 1,
  Mar: 2,
  Apr: 3,
  May: 4,
  Jun: 5,
  Jul: 6,
  Aug: 7,
  Sep: 8,
  Oct: 9,
  Nov: 10,
  Dec: 11,
};

/** Hours east of UTC for the zone names MTurk writes (its servers report U.S. Pacific time). */
const ZONES: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  PST: -8,
  PDT: -7,
  MST: -7,
  MDT: -6,
  CST: -6,
  CDT: -5,
  EST: -5,
  EDT: -4,
};

/** "Mon Nov 23 09:12:45 PST 2026" → ISO 8601, or null when it is not in that form or its zone is unknown. */
export function parseMturkTime(raw: string): string | null {
  const m = /^[A-Z][a-z]{2} ([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) ([A-Z]{3,4}) (\d{4})$/.exec(raw.trim());
  if (!m) return null;
  const [, month, day, hh, mm, ss, zone, year] = m;
  if (!(month in MONTHS) || !(zone in ZONES)) return null;
  const utc = Date.UTC(Number(year), MONTHS[month], Number(day), Number(hh) - ZONES[zone], Number(mm), Number(ss));
  const date = new Date(utc);
  // Date.UTC rolls over impossible dates (Feb 30); refuse them instead.
  const local = new Date(utc + ZONES[zone] * 3_600_000);
  if (local.getUTCDate() !== Number(day) || local.getUTCMonth() !== MONTHS[month]) return null;
  return date.toISOString();
}

/** "$0.50" (or "0.50") → 0.5; null when it is not an amount. */
export function parseRewardUsd(raw: string): number | null {
  const m = /^\$?\s*(\d+(?:\.\d+)?)$/.exec(raw.trim());
  return m ? Number(m[1]) : null;
}

function time(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === "") return null;
  return parseMturkTime(raw) ?? raw.trim();
}

const positiveInt = (raw: string): number | null => (/^[1-9]\d{0,15}$/.test(raw.trim()) ? Number(raw.trim()) : null);

/** One record into a typed row, or the problems that stop it. */
function readRow(
  line: number,
  fields: string[],
  v: Record<string, string>,
  studyId: number,
): { row: MturkResultRow | null; problems: ResultsProblem[] } {
  const assignmentId = v.AssignmentId.trim();
  const problems: ResultsProblem[] = [];
  const problem = (path: string, message: string) =>
    problems.push({ line, assignmentId: assignmentId || null, path, message });

  if (assignmentId === "") problem("AssignmentId", "is empty");
  const hitId = v.HITId.trim();
  if (hitId === "") problem("HITId", "is empty");
  const workerId = v.WorkerId.trim();
  if (workerId === "") problem("WorkerId", "is empty");

  const statusRaw = v.AssignmentStatus.trim();
  const status = statusRaw in MTURK_STATUSES ? (statusRaw as MturkStatus) : null;
  if (!status) problem("AssignmentStatus", `"${statusRaw}" is not one of ${Object.keys(MTURK_STATUSES).join(", ")}`);

  const workRaw = v.WorkTimeInSeconds.trim();
  const workSeconds = /^\d{1,9}$/.test(workRaw) ? Number(workRaw) : null;
  if (workSeconds === null) problem("WorkTimeInSeconds", `"${workRaw}" is not a whole number of seconds`);

  let rewardUsd: number | null = null;
  if (v.Reward !== undefined && v.Reward.trim() !== "") {
    rewardUsd = parseRewardUsd(v.Reward);
    if (rewardUsd === null) problem("Reward", `"${v.Reward}" is not an amount in USD such as $0.50`);
  }

  const rowStudy = positiveInt(v["Input.study_id"]);
  if (rowStudy === null) problem("Input.study_id", `"${v["Input.study_id"]}" is not a study id`);
  else if (rowStudy !== studyId) problem("Input.study_id", `is ${rowStudy}, but this import is for study ${studyId}`);
  const itemId = positiveInt(v["Input.item_id"]);
  if (itemId === null) problem("Input.item_id", `"${v["Input.item_id"]}" is not an item id (a positive whole number)`);

  // A rejected assignment's answer is never used, so only the others must carry a readable one.
  let answers: Record<string, unknown> | null = null;
  if (status !== "Rejected") {
    const parsed = parseTaskAnswers(v["Answer.taskAnswers"]);
    if (parsed.ok) answers = parsed.answers;
    else for (const p of parsed.problems) problem(p.path, p.message);
  }

  if (problems.length || !status || workSeconds === null || rowStudy === null || itemId === null)
    return { row: null, problems };
  return {
    row: {
      line,
      fields,
      hitId,
      assignmentId,
      workerId,
      status,
      workSeconds,
      rewardUsd,
      acceptedAt: time(v.AcceptTime),
      submittedAt: time(v.SubmitTime),
      studyId: rowStudy,
      itemId,
      answers,
    },
    problems,
  };
}

/**
 * Reads a results file for `studyId`. Never throws on bad content: every problem comes back
 * with its line, so the caller can refuse the file listing all of them at once.
 */
export function parseMturkResults(text: string, studyId: number): ParsedResults {
  let parsed: ParsedCsv;
  try {
    parsed = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvSyntaxError)
      return {
        header: [],
        rows: [],
        problems: [
          { line: err.line, assignmentId: null, path: "CSV", message: err.message.replace(/^line \d+: /, "") },
        ],
      };
    throw err;
  }
  const missing = REQUIRED_COLUMNS.filter((c) => !parsed.header.includes(c));
  if (missing.length) {
    return {
      header: parsed.header,
      rows: [],
      problems: missing.map((c) => ({
        line: 1,
        assignmentId: null,
        path: c,
        message: "this column is missing from the header (is this MTurk's batch results file?)",
      })),
    };
  }
  const rows: MturkResultRow[] = [];
  const problems: ResultsProblem[] = [];
  csvObjects(parsed).forEach(({ line, values }, i) => {
    const read = readRow(line, parsed.records[i].fields, values, studyId);
    if (read.row) rows.push(read.row);
    problems.push(...read.problems);
  });
  if (parsed.records.length === 0)
    problems.push({ line: 1, assignmentId: null, path: "CSV", message: "the file has a header but no assignments" });
  return { header: parsed.header, rows, problems };
}

/** `<file> line <N> (assignment <id>): <path>: <message>`, the form every import problem is shown in. */
export function formatResultsProblem(file: string, p: ResultsProblem): string {
  const who = p.assignmentId ? ` (assignment ${p.assignmentId})` : "";
  return `${file} line ${p.line}${who}: ${p.path}: ${p.message}`;
}

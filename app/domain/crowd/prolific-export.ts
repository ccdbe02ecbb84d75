/**
 * Prolific's submissions export (the study's "Download demographic data" / submissions CSV), read
 * into typed rows. Pure: the import (app/crowd-channels/prolific/import.server.ts) matches the rows
 * against the stored sessions.
 *
 * Prolific has renamed its columns over the years ("Submission id" today, "session_id" in older
 * exports) and adds demographic columns per study, so columns are found by name, in any order,
 * case and spacing ignored, and every other column is left alone.
 */
import { csvObjects, CsvSyntaxError, parseCsv, type ParsedCsv } from "../csv.ts";

/** What each column the import reads may be called (compared after `columnKey`). */
export const PROLIFIC_COLUMNS = {
  /** The SESSION_ID Prolific appended to the study URL. */
  submissionId: ["submission id", "session id", "submission_id", "session_id"],
  participantId: ["participant id", "participant_id", "prolific id", "prolific_pid"],
  status: ["status"],
  completionCode: ["completion code", "entered code", "entered_code", "study code"],
  /** Prolific's STUDY_ID; exports of one study usually leave it out. */
  studyId: ["study id", "study_id"],
} as const;
type Column = keyof typeof PROLIFIC_COLUMNS;
const REQUIRED: readonly Column[] = ["submissionId", "participantId", "status"];

/** Statuses under which Prolific vouches that the participant took part and submitted. */
export const CONFIRMING_STATUSES = ["APPROVED", "AWAITING REVIEW"] as const;

/** Codes Prolific writes when the participant gave none: the same as no code. */
const NO_CODE = new Set(["", "NOCODE"]);

export interface ProlificExportRow {
  /** The file line the record starts on (1 = the header). */
  line: number;
  submissionId: string;
  participantId: string;
  /** Upper case, words separated by one space: "AWAITING REVIEW", "TIMED-OUT". */
  status: string;
  /** Null when the participant gave no code (empty or NOCODE). */
  completionCode: string | null;
  /** Prolific's study id when the file has that column. */
  studyId: string | null;
}

export interface ExportProblem {
  /** The spreadsheet row (the file line a record starts on); 1 for the header or the whole file. */
  line: number;
  /** The column as written in the file (or "CSV"). */
  column: string;
  message: string;
}

export interface ParsedProlificExport {
  rows: ProlificExportRow[];
  problems: ExportProblem[];
}

/** "Submission ID", "submission_id " → "submission id". */
export function columnKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, " ");
}

/** "awaiting_review" → "AWAITING REVIEW". */
export function normaliseStatus(raw: string): string {
  return raw
    .trim()
    .toUpperCase()
    .replace(/[\s_]+/g, " ");
}

export function isConfirmingStatus(status: string): boolean {
  return (CONFIRMING_STATUSES as readonly string[]).includes(status);
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Which header name holds each column the import reads (absent optional columns are left out). */
function findColumns(header: string[]): { columns: Partial<Record<Column, string>>; problems: ExportProblem[] } {
  const columns: Partial<Record<Column, string>> = {};
  const problems: ExportProblem[] = [];
  for (const [column, names] of Object.entries(PROLIFIC_COLUMNS) as [Column, readonly string[]][]) {
    const found = header.filter((h) => (names as readonly string[]).includes(columnKey(h)));
    if (found.length > 1)
      problems.push({
        line: 1,
        column: found.join(" / "),
        message: `these columns all name the ${names[0]}; keep one`,
      });
    else if (found.length === 1) columns[column] = found[0];
    else if (REQUIRED.includes(column)) {
      problems.push({
        line: 1,
        column: names[0],
        message: `no "${names[0]}" column in the header (is this Prolific's submissions export?)`,
      });
    }
  }
  return { columns, problems };
}

function readRow(
  line: number,
  values: Record<string, string>,
  columns: Partial<Record<Column, string>>,
): { row: ProlificExportRow | null; problems: ExportProblem[] } {
  const problems: ExportProblem[] = [];
  const id = (column: "submissionId" | "participantId") => {
    const name = columns[column]!;
    const value = values[name].trim();
    if (value === "") problems.push({ line, column: name, message: "is empty" });
    else if (!ID.test(value))
      problems.push({
        line,
        column: name,
        message: `"${value}" is not a Prolific id (1–64 letters, digits, '_' or '-')`,
      });
    return value;
  };
  const submissionId = id("submissionId");
  const participantId = id("participantId");
  const status = normaliseStatus(values[columns.status!]);
  if (status === "") problems.push({ line, column: columns.status!, message: "is empty" });
  const code = columns.completionCode === undefined ? "" : values[columns.completionCode].trim();
  const studyId = columns.studyId === undefined ? "" : values[columns.studyId].trim();
  if (problems.length) return { row: null, problems };
  return {
    row: {
      line,
      submissionId,
      participantId,
      status,
      completionCode: NO_CODE.has(code.toUpperCase()) ? null : code,
      studyId: studyId || null,
    },
    problems,
  };
}

/** A submission listed twice is an error: the file is not one export. */
function duplicates(rows: ProlificExportRow[], column: string): ExportProblem[] {
  const first = new Map<string, number>();
  const problems: ExportProblem[] = [];
  for (const row of rows) {
    const seen = first.get(row.submissionId);
    if (seen === undefined) first.set(row.submissionId, row.line);
    else
      problems.push({
        line: row.line,
        column,
        message: `submission ${row.submissionId} is listed again (first on row ${seen})`,
      });
  }
  return problems;
}

/**
 * Reads an export. Never throws on bad content: every problem comes back with its line and
 * column, so the caller can refuse the file listing all of them at once.
 */
export function parseProlificExport(text: string): ParsedProlificExport {
  let parsed: ParsedCsv;
  try {
    parsed = parseCsv(text);
  } catch (err) {
    if (err instanceof CsvSyntaxError)
      return {
        rows: [],
        problems: [{ line: err.line, column: "CSV", message: err.message.replace(/^line \d+: /, "") }],
      };
    throw err;
  }
  const { columns, problems } = findColumns(parsed.header);
  if (problems.length) return { rows: [], problems };
  const rows: ProlificExportRow[] = [];
  for (const { line, values } of csvObjects(parsed)) {
    const read = readRow(line, values, columns);
    if (read.row) rows.push(read.row);
    problems.push(...read.problems);
  }
  problems.push(...duplicates(rows, columns.submissionId!));
  if (parsed.records.length === 0)
    problems.push({ line: 1, column: "CSV", message: "the file has a header but no submissions" });
  return { rows, problems: problems.sort((a, b) => a.line - b.line) };
}

/** `<file> row <N>, column "<column>": <message>`, the form every problem is shown in (row 1 is the header). */
export function formatExportProblem(file: string, p: ExportProblem): string {
  return `${file} row ${p.line}, column "${p.column}": ${p.message}`;
}

/**
 * The file MTurk's requester site takes back to approve or reject a batch: the results file as
 * downloaded, with an "x" in `Approve` or the reason (shown to the worker) in `Reject`. Rows left
 * blank in both stay as they are on MTurk. Pure: the decisions come from the gold review.
 */

import { toCsv } from "../csv.ts";

export const APPROVE_COLUMN = "Approve";
export const REJECT_COLUMN = "Reject";

export type ReviewMark = { decision: "approve" } | { decision: "reject"; reason: string };

/**
 * MTurk's own style: every field in quotes, quotes doubled, CRLF between records. Worker answers
 * that would run as spreadsheet formulas get the `'` guard (csv.ts); MTurk's upload reads only the
 * assignment id and the Approve/Reject columns, so the guard changes nothing it uses.
 */
export function quotedCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return toCsv(header, rows, { quoteAll: true });
}

/**
 * The review file: the header (with `Approve` and `Reject` added at the end if missing) and one
 * record per results record, `marks` giving the decision by record index. Existing Approve/Reject
 * text is cleared, so the file says exactly what was decided now.
 */
export function reviewFileCsv(
  header: readonly string[],
  records: readonly (readonly string[])[],
  marks: ReadonlyMap<number, ReviewMark>,
): string {
  const columns = [...header];
  for (const name of [APPROVE_COLUMN, REJECT_COLUMN]) if (!columns.includes(name)) columns.push(name);
  const approveAt = columns.indexOf(APPROVE_COLUMN);
  const rejectAt = columns.indexOf(REJECT_COLUMN);
  const rows = records.map((fields, i) => {
    const row = columns.map((_, c) => fields[c] ?? "");
    const mark = marks.get(i);
    row[approveAt] = mark?.decision === "approve" ? "x" : "";
    row[rejectAt] = mark?.decision === "reject" ? oneLine(mark.reason) : "";
    return row;
  });
  return quotedCsv(columns, rows);
}

/** A rejection reason is one line of text on MTurk. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Every number a benchmark report prints, flattened to a list a manifest can store and a later
 * run can compare: each table cell's mean, median, n, missing and CI bounds (a text cell: its
 * number and its text), and each numeric field of each figure's data rows. Identified by table,
 * row key, column key and field, with the row and column labels for a reader.
 */
import { isReportCell, type BenchmarkReport, type ReportValue } from "../report-model.ts";
import { figureRows } from "../report/format.ts";

export interface ReportNumber {
  /** Table or figure id. */
  table: string;
  row: string;
  column: string;
  /** mean, median, n, missing, ciLow, ciHigh; value and text for a text cell; the data field for a figure. */
  field: string;
  value: number | string | null;
  /** What a reader calls the row and the column (labels), when they differ from the keys. */
  rowLabel?: string;
  columnLabel?: string;
}

function cellFields(v: ReportValue): [string, number | string | null][] {
  if (isReportCell(v)) {
    return [
      ["mean", v.mean],
      ["median", v.median],
      ["n", v.n],
      ["missing", v.missing],
      ["ciLow", v.ci?.[0] ?? null],
      ["ciHigh", v.ci?.[1] ?? null],
    ];
  }
  return [
    ["value", v.value],
    ["text", v.text],
  ];
}

/**
 * A number as JSON keeps it: NaN and ±Infinity (which JSON cannot hold) become their names; −0 is 0 (JSON writes it
 * so).
 */
function storable(v: number | string | null): number | string | null {
  if (typeof v !== "number") return v;
  return !Number.isFinite(v) ? String(v) : v === 0 ? 0 : v;
}

export function reportNumbers(report: Pick<BenchmarkReport, "tables" | "figures">): ReportNumber[] {
  const out: ReportNumber[] = [];
  for (const table of report.tables) {
    for (const row of table.rows) {
      for (const column of table.columns) {
        const v = row.cells[column.key];
        if (v === undefined) continue;
        const columnLabel = column.group ? `${column.group} ${column.label}` : column.label;
        for (const [field, value] of cellFields(v)) {
          out.push({
            table: table.id,
            row: row.key,
            column: column.key,
            field,
            value: storable(value),
            ...(row.label !== row.key ? { rowLabel: row.label } : {}),
            ...(columnLabel !== column.key ? { columnLabel } : {}),
          });
        }
      }
    }
  }
  for (const figure of report.figures) {
    figureRows(figure).forEach((r, i) => {
      for (const [field, value] of Object.entries(r)) {
        if (typeof value === "number" || value === null)
          out.push({ table: figure.id, row: String(i), column: "data", field, value: storable(value) });
      }
    });
  }
  return out;
}

const keyOf = (n: Pick<ReportNumber, "table" | "row" | "column" | "field">) =>
  `${n.table}\u0000${n.row}\u0000${n.column}\u0000${n.field}`;

export interface NumberDifference {
  table: string;
  row: string;
  column: string;
  field: string;
  stored: ReportNumber["value"] | undefined;
  recomputed: ReportNumber["value"] | undefined;
  rowLabel?: string;
  columnLabel?: string;
}

/** The first number (in the stored order, then any the recomputation adds) that is not identical; null when none. */
export function firstDifference(
  stored: readonly ReportNumber[],
  recomputed: readonly ReportNumber[],
): NumberDifference | null {
  const now = new Map(recomputed.map((n) => [keyOf(n), n]));
  for (const s of stored) {
    const r = now.get(keyOf(s));
    if (!r || !Object.is(r.value, s.value))
      return { ...place(s), stored: s.value, recomputed: r ? r.value : undefined };
  }
  const before = new Set(stored.map(keyOf));
  const added = recomputed.find((r) => !before.has(keyOf(r)));
  return added ? { ...place(added), stored: undefined, recomputed: added.value } : null;
}

const place = (n: ReportNumber) => ({
  table: n.table,
  row: n.row,
  column: n.column,
  field: n.field,
  ...(n.rowLabel ? { rowLabel: n.rowLabel } : {}),
  ...(n.columnLabel ? { columnLabel: n.columnLabel } : {}),
});

/** "table3, row alpha, column CG avg (CG|avg), mean: stored 0.52, recomputed 0.51". */
export function describeDifference(d: NumberDifference): string {
  const shown = (v: NumberDifference["stored"]) => (v === undefined ? "absent" : JSON.stringify(v));
  const row = d.rowLabel ? `${d.rowLabel} (${d.row})` : d.row;
  const column = d.columnLabel ? `${d.columnLabel} (${d.column})` : d.column;
  return `${d.table}, row ${row}, column ${column}, ${d.field}: stored ${shown(d.stored)}, recomputed ${shown(d.recomputed)}`;
}

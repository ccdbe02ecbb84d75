/**
 * The alignment table as the dashboard page shows it: each method's Pearson figures and the
 * number of reference units, without the per-unit reference values and each method's value on
 * every unit (at 5,000 units that part is about 1 MB the browser would receive and never show).
 */
import type { AlignmentRow, AlignmentTable } from "./alignment-table.ts";

export interface AlignmentSummary {
  minExpertLabels: number;
  s0?: number;
  /** How many (snippet, topic) units have an expert reference. */
  unitCount: number;
  rows: Omit<AlignmentRow, "values">[];
}

export function alignmentSummary(table: AlignmentTable): AlignmentSummary {
  return {
    minExpertLabels: table.minExpertLabels,
    ...(table.s0 !== undefined ? { s0: table.s0 } : {}),
    unitCount: table.units.length,
    rows: table.rows.map(({ values: _values, ...row }) => row),
  };
}

// Cell aggregation (mediator × domain, mediator × axis, …): mean over runs or pairs, reported ×100.
import { assertFiniteNumber, meanOrNull } from "./numeric.ts";

export interface CellAggregate {
  /** Mean of the non-null values on the metric's own scale; null when none. */
  mean: number | null;
  /** mean × 100, as reported in tables; null when none. */
  percent: number | null;
  /** Runs (or pairs) that entered the mean. */
  used: number;
  /** Runs (or pairs) without a value for this metric (e.g. no drop events). */
  skipped: number;
}

export function aggregateCell(values: readonly (number | null)[]): CellAggregate {
  const present: number[] = [];
  for (const v of values) {
    if (v === null) continue;
    // A NaN here would be a bug upstream: "no value" must arrive as null.
    assertFiniteNumber(v, "cell value");
    present.push(v);
  }
  const mean = meanOrNull(present);
  return {
    mean,
    percent: mean === null ? null : mean * 100,
    used: present.length,
    skipped: values.length - present.length,
  };
}

/**
 * Consensus by snippet position, for the dashboard's line chart: at each position, the expert
 * mean and each method's value, averaged over the (trajectory, topic) units at that position.
 *
 * Scale: consensus 0–1, c = (score − 1) / 4, the same remap as C[t] (shown as a percentage), so
 * the chart reads like the run viewer's consensus chart.
 */
import { remapScore } from "../consensus.ts";
import type { AlignmentMethod, AlignmentTable } from "./alignment-table.ts";

export interface TrendPoint {
  position: number;
  /** Mean consensus 0–1 over the units at this position that have a value; null when none do. */
  mean: number | null;
  /** Units that entered the mean. */
  n: number;
}

export interface TrendSeries {
  key: string;
  label: string;
  method: "expert" | AlignmentMethod;
  points: TrendPoint[];
}

export interface ConsensusTrend {
  scale: "consensus-0-1";
  /** Snippet positions present in the table, ascending. */
  positions: number[];
  /** The expert mean first, then one series per alignment row in the table's order. */
  series: TrendSeries[];
}

export function consensusTrend(table: AlignmentTable): ConsensusTrend {
  const positions = [...new Set(table.units.map((u) => u.snippetPosition))].sort((a, b) => a - b);
  const series = (
    key: string,
    label: string,
    method: TrendSeries["method"],
    values: readonly (number | null)[],
  ): TrendSeries => {
    const sums = new Map<number, { sum: number; n: number }>();
    table.units.forEach((u, i) => {
      const v = values[i];
      if (v === null) return;
      const acc = sums.get(u.snippetPosition) ?? { sum: 0, n: 0 };
      acc.sum += remapScore(v);
      acc.n++;
      sums.set(u.snippetPosition, acc);
    });
    const points = positions.map((position) => {
      const acc = sums.get(position);
      return acc ? { position, mean: acc.sum / acc.n, n: acc.n } : { position, mean: null, n: 0 };
    });
    return { key, label, method, points };
  };
  return {
    scale: "consensus-0-1",
    positions,
    series: [
      series(
        "expert",
        "Expert mean",
        "expert",
        table.units.map((u) => u.reference),
      ),
      ...table.rows.map((row) => series(row.key, row.label, row.method, row.values)),
    ],
  };
}

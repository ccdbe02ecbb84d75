/**
 * Table 9: repeated runs. Per mediator, the median ± half-range over run indices of each run
 * index's mean IT / IE / CG on the repeat conditions (the paper: general only), then the Kendall
 * τ-b between the mediator rankings of every two run indices, and their mean.
 */
import type { ReportRow, ReportTable } from "../domain/benchmark/report-model.ts";
import { median } from "../domain/validation/rows.ts";
import { meanOf } from "../domain/benchmark/report/cells.ts";
import {
  judgedValue,
  TOPIC_METRICS,
  type ReportInput,
  type ReportSubject,
  type TopicMetric,
} from "../domain/benchmark/report/input.ts";
import { rankingAgreement as agreement } from "../domain/metrics/ranking-agreement.ts";
import type { TablePart } from "../domain/benchmark/report/part.ts";
import { mediatorRows, pct, text, withP } from "../domain/benchmark/report/rows.ts";

const TITLE = "Table 9: repeated runs";

/** Mean of a metric per mediator per run index: means[mediator][index] (null where none). */
export function runIndexMeans(
  input: ReportInput,
  subjects: readonly ReportSubject[],
  metric: TopicMetric,
  runs: number,
): Map<string, (number | null)[]> {
  const evaluator = input.evaluators[0];
  const out = new Map<string, (number | null)[]>();
  for (const m of input.mediators) {
    const own = subjects.filter((s) => s.mediator === m.name);
    out.set(
      m.name,
      Array.from({ length: runs }, (_, i) =>
        meanOf(own.filter((s) => s.runIndex === i).map((s) => judgedValue(s, evaluator, metric))),
      ),
    );
  }
  return out;
}

/** Median and half-range ((max − min) / 2) of the defined values. */
export function medianHalfRange(values: readonly (number | null)[]): {
  median: number | null;
  halfRange: number | null;
} {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return { median: null, halfRange: null };
  return { median: median(present), halfRange: (Math.max(...present) - Math.min(...present)) / 2 };
}

function scoresAt(means: Map<string, (number | null)[]>, index: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [m, list] of means) if (list[index] !== null) out[m] = list[index]!;
  return out;
}

export function buildTable9(input: ReportInput): ReportTable | null {
  const repeats = input.repeats;
  if (!repeats) return null;
  const keys = new Set(repeats.conditionKeys);
  const subjects = input.subjects.filter(
    (s) => s.simulator === input.simulator && keys.has(s.conditionKey) && s.runIndex < repeats.runs,
  );
  const means = new Map(
    TOPIC_METRICS.map((metric) => [metric, runIndexMeans(input, subjects, metric, repeats.runs)] as const),
  );
  const rows: ReportRow[] = mediatorRows(input).map((m) => ({
    ...m,
    cells: Object.fromEntries(
      TOPIC_METRICS.map((metric) => {
        const { median, halfRange } = medianHalfRange(means.get(metric)!.get(m.key)!);
        return [metric, text(median, median === null ? "–" : `${pct(median)} ± ${pct(halfRange)}`)];
      }),
    ),
  }));
  const taus = new Map<TopicMetric, number[]>(TOPIC_METRICS.map((m) => [m, []]));
  for (let i = 0; i < repeats.runs; i++) {
    for (let j = i + 1; j < repeats.runs; j++) {
      const cells = Object.fromEntries(
        TOPIC_METRICS.map((metric) => {
          const k = agreement(scoresAt(means.get(metric)!, i), scoresAt(means.get(metric)!, j)).kendall;
          if (k.tau !== null && !Number.isNaN(k.tau)) taus.get(metric)!.push(k.tau);
          return [metric, text(k.tau, withP(k.tau, k.p, k.method))];
        }),
      );
      rows.push({
        key: `kendall|${i}|${j}`,
        label: `Kendall τ-b, run ${i + 1} vs run ${j + 1}`,
        group: "rank agreement",
        cells,
      });
    }
  }
  rows.push({
    key: "kendall|mean",
    label: "Kendall τ-b, mean over run pairs",
    group: "rank agreement",
    cells: Object.fromEntries(
      TOPIC_METRICS.map((metric) => {
        const mean = meanOf(taus.get(metric)!);
        return [metric, text(mean, mean === null ? "–" : mean.toFixed(3))];
      }),
    ),
  });
  return {
    id: "table9",
    title: TITLE,
    caption: `Each mediator over ${repeats.runs} independent runs on ${repeats.conditionKeys.join(", ")}: the median ± half-range (×100) of the per-run means, and the Kendall τ-b between the mediator rankings of every two runs.`,
    scale: "raw",
    columns: TOPIC_METRICS.map((metric) => ({ key: metric, label: metric })),
    rows,
    notes: [
      "Run i's mean: over the mediator's runs with run index i on the repeat conditions, under the main evaluator and simulator. Half-range = (max − min) / 2.",
      "Kendall p two-sided, exact (all pairings of the rankings) without ties up to 33 mediators, else asymptotic; each p names its method.",
    ],
  };
}

export const table9: TablePart = {
  id: "table9",
  kind: "table",
  section: "paper",
  order: 90,
  title: TITLE,
  build: buildTable9,
  omitted: () => "Table 9 omitted: the plan has no repeated runs (ablations.repeats).",
};

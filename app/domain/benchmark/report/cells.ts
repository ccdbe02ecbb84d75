/**
 * One table cell from the subjects that fall in it: mean, median, n, missing (via aggregateCell)
 * and a 95% percentile bootstrap CI that resamples scenarios — every run of a drawn scenario
 * enters the draw, so runs of one scenario are never treated as independent.
 */
import { aggregateCell } from "../../metrics/aggregate-cell.ts";
import { quantileSorted } from "../../stats/bootstrap.ts";
import { createRng, randomInt } from "../../stats/rng.ts";
import { median } from "../../validation/rows.ts";
import type { ReportCell } from "../report-model.ts";
import type { BootstrapSettings } from "./input.ts";

export interface CellSample {
  value: number | null;
  scenarioId: string;
  runId: string;
}

export const DEFAULT_BOOTSTRAP: BootstrapSettings = { draws: 1000, seed: 1, level: 0.95 };

/**
 * Percentile CI of the pooled mean when scenarios are drawn with replacement. Each cell starts
 * the generator from the same seed, so a cell's CI does not depend on which other cells exist.
 */
export function scenarioBootstrapCi(
  samples: readonly CellSample[],
  settings: BootstrapSettings,
): [number, number] | null {
  const sums = new Map<string, { sum: number; count: number }>();
  for (const s of samples) {
    if (s.value === null) continue;
    const acc = sums.get(s.scenarioId) ?? { sum: 0, count: 0 };
    acc.sum += s.value;
    acc.count += 1;
    sums.set(s.scenarioId, acc);
  }
  const groups = [...sums.values()];
  if (groups.length < 2) return null;
  const rng = createRng(settings.seed);
  const means: number[] = [];
  for (let d = 0; d < settings.draws; d++) {
    let sum = 0;
    let count = 0;
    for (let i = 0; i < groups.length; i++) {
      const g = groups[randomInt(rng, groups.length)];
      sum += g.sum;
      count += g.count;
    }
    means.push(sum / count);
  }
  means.sort((a, b) => a - b);
  const tail = (1 - settings.level) / 2;
  return [quantileSorted(means, tail), quantileSorted(means, 1 - tail)];
}

export function buildCell(samples: readonly CellSample[], settings: BootstrapSettings): ReportCell {
  const aggregate = aggregateCell(samples.map((s) => s.value));
  const present = samples.flatMap((s) => (s.value === null ? [] : [s.value]));
  return {
    mean: aggregate.mean,
    median: median(present),
    n: aggregate.used,
    missing: aggregate.skipped,
    ci: scenarioBootstrapCi(samples, settings),
    runIds: samples.flatMap((s) => (s.value === null ? [] : [s.runId])),
    missingRunIds: samples.flatMap((s) => (s.value === null ? [s.runId] : [])),
  };
}

/** The plain mean of the present values (for rankings), or null. */
export function meanOf(values: readonly (number | null)[]): number | null {
  return aggregateCell(values).mean;
}

// Timing profile: mean IE_m by how far into the run (p = m / T) the intervention came.
import { assertFiniteNumber, assertPositiveInteger, meanOrNull } from "./numeric.ts";

export interface TimedIntervention {
  /** p = m / T, in (0, 1]. */
  progress: number;
  ie: number;
}

export interface TimingBin {
  index: number;
  /** Inclusive lower edge. */
  lower: number;
  /** Exclusive upper edge, except for the last bin, which includes p = 1. */
  upper: number;
  count: number;
  meanIe: number | null;
}

export interface TimingProfileResult {
  bins: TimingBin[];
  binCount: number;
  interventions: number;
}

export const DEFAULT_TIMING_BINS = 5;

/**
 * p is a ratio m/T rounded to a double, so a p that equals an edge on paper may sit a few ulps
 * below it; this slack puts it in the bin that starts at that edge.
 */
const EDGE_SLACK = 1e-9;

export function timingBinIndex(progress: number, binCount: number): number {
  if (!Number.isFinite(progress) || progress <= 0 || progress > 1) {
    throw new RangeError(`progress must be in (0, 1], got ${progress}`);
  }
  return Math.min(binCount - 1, Math.floor(progress * binCount + EDGE_SLACK));
}

export function timingProfile(
  interventions: readonly TimedIntervention[],
  binCount: number = DEFAULT_TIMING_BINS,
): TimingProfileResult {
  assertPositiveInteger(binCount, "bins");
  const valuesPerBin: number[][] = Array.from({ length: binCount }, () => []);
  for (const { progress, ie } of interventions) {
    assertFiniteNumber(ie, "ie");
    valuesPerBin[timingBinIndex(progress, binCount)].push(ie);
  }
  const bins = valuesPerBin.map((values, index) => ({
    index,
    lower: index / binCount,
    upper: (index + 1) / binCount,
    count: values.length,
    meanIe: meanOrNull(values),
  }));
  return { bins, binCount, interventions: interventions.length };
}

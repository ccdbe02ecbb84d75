/**
 * The emotion metrics' arithmetic (docs/metrics-emotion.md): emotional repair per intervention
 * (normalised like IE), final emotion, volatility, and the correlation of the group's emotion
 * with the consensus series C[t]. Pure functions of series; the registry descriptors in
 * app/domain/metrics/benchmark/e*.ts store their results.
 */
import { pearson } from "../stats/correlation.ts";
import { assertPositiveInteger, gapNormalizedChange, meanOrNull } from "../metrics/numeric.ts";
import { unitEmotion } from "./scale.ts";
import type { NullableSeries } from "./series.ts";
import type { EmotionPoint } from "./trajectory.ts";

export const DEFAULT_REPAIR_HORIZON = 5;

export interface RepairLift {
  /** Mediator turn m. */
  m: number;
  /** Ē[m − 1]. */
  before: number;
  /** min(m + h, T). */
  afterTurn: number;
  /** Ē[min(m + h, T)]. */
  after: number;
  er: number;
}

export interface RepairResult {
  /** Mean ER_m over the interventions with a defined Ē[m − 1]; null when there are none. */
  er: number | null;
  reason?: "no interventions" | "no intervention after every party had reported";
  perIntervention: RepairLift[];
  interventions: number;
  /** Interventions before every party had reported (Ē[m − 1] undefined): counted, left out. */
  beforeAllReported: number;
  /** Interventions whose horizon was cut short by the end of the run. */
  truncatedHorizon: number;
  horizon: number;
}

/**
 * ER_m = (Ē[min(m+h, T)] − Ē[m−1]) / (1 − Ē[m−1]) when Ē[m−1] < 1, else the raw change — IE's
 * normalisation on the group's emotion instead of C.
 */
export function emotionalRepair(
  group: NullableSeries,
  mediatorTurns: readonly number[],
  options: { horizon?: number } = {},
): RepairResult {
  const horizon = options.horizon ?? DEFAULT_REPAIR_HORIZON;
  assertPositiveInteger(horizon, "horizon");
  const T = group.length - 1;
  const perIntervention: RepairLift[] = [];
  let beforeAllReported = 0;
  for (const m of mediatorTurns) {
    if (!Number.isInteger(m) || m < 1 || m > T) throw new RangeError(`mediator turn ${m} is outside the run (1..${T})`);
    const before = group[m - 1];
    const afterTurn = Math.min(m + horizon, T);
    const after = group[afterTurn];
    if (before === null || after === null) {
      beforeAllReported += 1;
      continue;
    }
    perIntervention.push({ m, before, afterTurn, after, er: gapNormalizedChange(before, after) });
  }
  const er = meanOrNull(perIntervention.map((p) => p.er));
  const result: RepairResult = {
    er,
    perIntervention,
    interventions: mediatorTurns.length,
    beforeAllReported,
    truncatedHorizon: perIntervention.filter((p) => p.m + horizon > T).length,
    horizon,
  };
  if (er === null)
    result.reason = mediatorTurns.length === 0 ? "no interventions" : "no intervention after every party had reported";
  return result;
}

/** Ē[T] with each party's last score; null when a party never reported. */
export function finalEmotion(
  group: NullableSeries,
  parties: Record<string, readonly EmotionPoint[]>,
): { value: number | null; perParty: Record<string, number | null>; reason?: string } {
  const perParty = Object.fromEntries(
    Object.entries(parties).map(([p, points]) => [
      p,
      points.length > 0 ? unitEmotion(points[points.length - 1].score) : null,
    ]),
  );
  const value = group[group.length - 1] ?? null;
  const silent = Object.entries(perParty)
    .filter(([, v]) => v === null)
    .map(([p]) => p);
  return value === null
    ? {
        value,
        perParty,
        reason: silent.length > 0 ? `no emotion reported by ${silent.join(", ")}` : "no emotion reported",
      }
    : { value, perParty };
}

/** Mean |e_i − e_{i−1}| / 100 over a party's consecutive reports; null with fewer than two. */
export function partyVolatility(points: readonly EmotionPoint[]): number | null {
  if (points.length < 2) return null;
  let sum = 0;
  for (let i = 1; i < points.length; i++)
    sum += Math.abs(unitEmotion(points[i].score) - unitEmotion(points[i - 1].score));
  return sum / (points.length - 1);
}

/**
 * The run's volatility: the mean of its parties' volatilities (parties with fewer than two reports left out, counted).
 */
export function volatility(parties: Record<string, readonly EmotionPoint[]>): {
  value: number | null;
  perParty: Record<string, number | null>;
  reason?: string;
} {
  const perParty = Object.fromEntries(Object.entries(parties).map(([p, points]) => [p, partyVolatility(points)]));
  const value = meanOrNull(Object.values(perParty).filter((v): v is number => v !== null));
  return value === null ? { value, perParty, reason: "no party reported twice" } : { value, perParty };
}

/** Pearson r of Ē[t] and C[t] over the turns where Ē is defined. */
export function emotionConsensusCorrelation(
  group: NullableSeries,
  consensus: readonly number[],
): { value: number | null; n: number; p: number | null; reason?: string } {
  if (group.length !== consensus.length)
    throw new RangeError(`the emotion series has ${group.length} points and the consensus series ${consensus.length}`);
  const x: number[] = [];
  const y: number[] = [];
  group.forEach((e, t) => {
    if (e === null) return;
    x.push(e);
    y.push(consensus[t]);
  });
  const r = pearson(x, y);
  return r.r === null ? { value: null, n: r.n, p: null, reason: r.reason } : { value: r.r, n: r.n, p: r.p };
}

/**
 * Active labelling's design (issue 33, docs/active-labelling.md): the population of an active
 * study split into mediator strata, each with its own sequential Poisson order (order-sampling.ts),
 * the rule that picks the next run to draw, and the inclusion probabilities the estimator uses at
 * any moment. Pure and deterministic for a seed.
 */
import { activeMean, type ActiveUnit, type MeanEstimate } from "./mean-estimators.ts";
import { drawOrder, inclusionProbabilities, type OrderedUnit } from "./order-sampling.ts";

export interface PopulationRun {
  runId: string;
  /** The stratum: the mediator's backbone, or "none". */
  mediator: string;
  /** The judge's uncertainty about the run (≥ 0). */
  uncertainty: number;
}

export interface DrawRow extends PopulationRun {
  size: number;
  key: number;
  /** The run's place in the order runs were drawn into the study (1, 2, …); null: not drawn yet. */
  position: number | null;
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The judge's uncertainty about a run, from its topic scores (1–5) at the final turn, one list per
 * judge backbone. With two backbones it is how far apart their outcome readings are (the mean of
 * (s − 1)/4 over topics): where two judges disagree, at least one is wrong. With one it is the
 * spread (population standard deviation) of its topic readings: a run whose topics all sit at one
 * end of the scale is one the judge and the experts rarely read differently, while a run with some
 * topics settled and others open is where the judge's per-topic calls decide the outcome.
 */
export function judgeUncertainty(finalScores: readonly (readonly number[])[]): number {
  const scaled = finalScores.map((scores) => scores.map((s) => (s - 1) / 4));
  scaled.forEach((list, b) => {
    if (list.length === 0) throw new RangeError(`backbone ${b + 1} has no topic scores`);
    list.forEach((v, k) => {
      if (!(Number.isFinite(v) && v >= 0 && v <= 1))
        throw new RangeError(`backbone ${b + 1}, topic ${k + 1}: score ${finalScores[b][k]} is not on 1–5`);
    });
  });
  const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / xs.length;
  if (scaled.length >= 2) return Math.abs(mean(scaled[0]) - mean(scaled[1]));
  if (scaled.length === 0) throw new RangeError("no judge scores");
  const m = mean(scaled[0]);
  return Math.sqrt(scaled[0].reduce((s, v) => s + (v - m) ** 2, 0) / scaled[0].length);
}

/** Each stratum's seed: the study seed mixed with the stratum's rank, so strata get unrelated uniforms. */
const stratumSeed = (seed: number, rank: number) => (seed ^ Math.imul(rank + 1, 0x9e3779b1)) | 0;

/** The population's draw rows, none drawn: per mediator stratum (in name order), its sequential Poisson order. */
export function planDraws(population: readonly PopulationRun[], seed: number): DrawRow[] {
  const strata = groupBy(population, (r) => r.mediator);
  const out: DrawRow[] = [];
  [...strata.keys()].sort(byString).forEach((mediator, rank) => {
    const runs = strata.get(mediator)!;
    const byId = new Map(runs.map((r) => [r.runId, r]));
    if (byId.size !== runs.length) throw new RangeError(`stratum ${mediator}: a run appears twice`);
    const order = drawOrder(
      runs.map((r) => ({ id: r.runId, uncertainty: r.uncertainty })),
      stratumSeed(seed, rank),
    );
    for (const u of order) out.push({ ...byId.get(u.id)!, size: u.size, key: u.key, position: null });
  });
  return out;
}

function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const list = out.get(keyOf(row)) ?? [];
    list.push(row);
    out.set(keyOf(row), list);
  }
  return out;
}

const byKey = (a: DrawRow, b: DrawRow) => a.key - b.key || byString(a.runId, b.runId);

/**
 * The run to draw next, or null when `budget` runs are drawn or none is left: the stratum with the
 * fewest drawn runs goes first (ties: the stratum whose next run has the lowest key, then by name),
 * and within it the undrawn run with the lowest key.
 */
export function nextToDraw(draws: readonly DrawRow[], budget: number): DrawRow | null {
  if (draws.filter((d) => d.position !== null).length >= budget) return null;
  let best: { next: DrawRow; drawn: number } | null = null;
  for (const [, rows] of groupBy(draws, (d) => d.mediator)) {
    const undrawn = rows.filter((d) => d.position === null).sort(byKey);
    if (undrawn.length === 0) continue;
    const candidate = { next: undrawn[0], drawn: rows.length - undrawn.length };
    if (
      !best ||
      candidate.drawn < best.drawn ||
      (candidate.drawn === best.drawn &&
        (byKey(candidate.next, best.next) < 0 ||
          (candidate.next.key === best.next.key && byString(candidate.next.mediator, best.next.mediator) < 0)))
    )
      best = candidate;
  }
  return best?.next ?? null;
}

export interface DesignUnit extends DrawRow {
  /** π_i at the stratum's current prefix. */
  pi: number;
  /** In the complete prefix: its human value enters the estimate. */
  inPrefix: boolean;
}

export interface StratumDesign {
  mediator: string;
  /** In the stratum's draw order (ascending key). */
  units: DesignUnit[];
  /** The longest prefix of the order whose runs are drawn and completely labelled. */
  r: number;
  /** Runs drawn but beyond that prefix (their labels are not complete yet, or an earlier run's are not): left out. */
  leftOut: number;
}

/**
 * Every stratum's design at this moment: `complete` holds the runs whose labels are complete. The
 * inclusion probabilities are those of the first r runs of the order, r the longest prefix of
 * drawn, complete runs; drawn runs past it wait (they are counted in `leftOut`).
 */
export function stratumDesigns(draws: readonly DrawRow[], complete: ReadonlySet<string>): StratumDesign[] {
  return [...groupBy(draws, (d) => d.mediator)]
    .sort(([a], [b]) => byString(a, b))
    .map(([mediator, rows]) => {
      const order = [...rows].sort(byKey);
      let r = 0;
      while (r < order.length && order[r].position !== null && complete.has(order[r].runId)) r++;
      const pis = inclusionProbabilities(
        order.map((u): OrderedUnit => ({ id: u.runId, size: u.size, key: u.key })),
        r,
      );
      const units = order.map((u, i) => ({ ...u, pi: pis[i], inPrefix: i < r }));
      return { mediator, units, r, leftOut: order.filter((u, i) => i >= r && u.position !== null).length };
    });
}

/**
 * A stratum's active (inverse-probability-weighted) estimate of a quantity's mean, from the judge's
 * value `f` on every run and the human value `y` on the runs of the prefix. A run without a judge
 * value cannot enter the population sum and is counted in `missingJudge`.
 */
export function activeStratumEstimate(
  design: StratumDesign,
  f: (runId: string) => number | null,
  y: (runId: string) => number | null,
  alpha = 0.05,
): { estimate: MeanEstimate | null; missingJudge: number } {
  const units: ActiveUnit[] = [];
  let missingJudge = 0;
  for (const u of design.units) {
    const judge = f(u.runId);
    if (judge === null) {
      missingJudge++;
      continue;
    }
    units.push({ f: judge, pi: u.pi, y: u.inPrefix ? y(u.runId) : null });
  }
  return { estimate: activeMean(units, alpha), missingJudge };
}

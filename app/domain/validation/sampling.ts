/**
 * Seeded sampling for validation studies: which trajectories get annotated (stratified by
 * domain × mediator), and where gold items go among the regular ones.
 */
import { createRng, randomInt } from "../stats/index.ts";
import { assertSeed, compareStrings } from "./rows.ts";

export interface SamplingTrajectory {
  runId: string;
  domain: string;
  /** The mediator's backbone, or "none" for an unmediated run. */
  mediator: string;
}

export interface StratumPlan {
  domain: string;
  mediator: string;
  available: number;
  /** Proportional share n · available / total, before rounding. */
  quota: number;
  allocated: number;
}

export interface SamplePlan {
  /** Sorted by domain, then mediator. */
  strata: StratumPlan[];
  /** The sampled run ids, ascending. */
  runIds: string[];
}

/**
 * Proportional allocation over domain × mediator strata.
 *
 * - Each stratum gets ⌊quota⌋; the n − Σ⌊quota⌋ left over go to the largest remainders (ties:
 *   the larger stratum, then a seeded random order of the strata).
 * - When n ≥ number of strata, a stratum left at 0 takes one from the stratum most above its
 *   quota (which has at least 2), so every stratum is represented.
 * - Within a stratum the runs are drawn by a seeded shuffle of the run ids in sorted order.
 * Everything is computed from the trajectories sorted by run id, so the input order never
 * matters; the same seed gives the same sample.
 */
export function planStratifiedSample(trajectories: readonly SamplingTrajectory[], n: number, seed: number): SamplePlan {
  checkTrajectories(trajectories);
  const total = trajectories.length;
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`sample size must be a whole number of at least 1, got ${n}`);
  if (n > total) throw new RangeError(`cannot sample ${n} trajectories: only ${total} are available`);
  assertSeed(seed);

  const strata = groupStrata(trajectories);
  const rng = createRng(seed);
  const tieRank = ranksOf(shuffle(strata.length, rng));

  // Integer arithmetic: quota_i = n·N_i / total = floor_i + rem_i / total, compared exactly.
  const alloc = strata.map((s) => Math.floor((n * s.runIds.length) / total));
  const rem = strata.map((s, i) => n * s.runIds.length - alloc[i] * total);
  let left = n - alloc.reduce((a, b) => a + b, 0);
  const byRemainder = strata
    .map((_, i) => i)
    .sort((a, b) => rem[b] - rem[a] || strata[b].runIds.length - strata[a].runIds.length || tieRank[a] - tieRank[b]);
  for (const i of byRemainder) {
    if (left === 0) break;
    alloc[i]++;
    left--;
  }

  if (n >= strata.length) {
    // Excess over quota, scaled by total to stay an integer.
    const excess = (i: number) => alloc[i] * total - n * strata[i].runIds.length;
    const empty = strata
      .map((_, i) => i)
      .filter((i) => alloc[i] === 0)
      .sort((a, b) => tieRank[a] - tieRank[b]);
    for (const i of empty) {
      let donor = -1;
      for (let j = 0; j < strata.length; j++) {
        if (alloc[j] < 2) continue;
        if (donor === -1 || excess(j) > excess(donor) || (excess(j) === excess(donor) && tieRank[j] < tieRank[donor]))
          donor = j;
      }
      alloc[donor]--; // a donor exists: Σ alloc = n ≥ strata and stratum i has none
      alloc[i]++;
    }
  }

  const runIds: string[] = [];
  strata.forEach((s, i) => {
    const order = shuffle(s.runIds.length, rng);
    for (let k = 0; k < alloc[i]; k++) runIds.push(s.runIds[order[k]]);
  });
  runIds.sort(compareStrings);

  return {
    strata: strata.map((s, i) => ({
      domain: s.domain,
      mediator: s.mediator,
      available: s.runIds.length,
      quota: (n * s.runIds.length) / total,
      allocated: alloc[i],
    })),
    runIds,
  };
}

/** The sampled run ids, ascending (see planStratifiedSample for the rule). */
export function stratifiedSample(trajectories: readonly SamplingTrajectory[], n: number, seed: number): string[] {
  return planStratifiedSample(trajectories, n, seed).runIds;
}

function checkTrajectories(trajectories: readonly SamplingTrajectory[]): void {
  const seen = new Set<string>();
  trajectories.forEach((t, i) => {
    for (const field of ["runId", "domain", "mediator"] as const) {
      if (typeof t[field] !== "string" || t[field] === "") {
        throw new RangeError(`trajectories[${i}].${field} must be a non-empty string, got ${JSON.stringify(t[field])}`);
      }
    }
    if (seen.has(t.runId)) throw new RangeError(`trajectories[${i}]: run ${t.runId} appears twice`);
    seen.add(t.runId);
  });
}

interface Stratum {
  domain: string;
  mediator: string;
  runIds: string[]; // sorted
}

function groupStrata(trajectories: readonly SamplingTrajectory[]): Stratum[] {
  const byKey = new Map<string, Stratum>();
  for (const t of trajectories) {
    const key = `${t.domain}\u0000${t.mediator}`;
    const stratum = byKey.get(key) ?? { domain: t.domain, mediator: t.mediator, runIds: [] };
    stratum.runIds.push(t.runId);
    byKey.set(key, stratum);
  }
  const strata = [...byKey.values()];
  for (const s of strata) s.runIds.sort(compareStrings);
  return strata.sort((a, b) => compareStrings(a.domain, b.domain) || compareStrings(a.mediator, b.mediator));
}

/** A seeded Fisher–Yates shuffle of 0..n−1. */
function shuffle(n: number, rng: () => number): number[] {
  const perm = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = randomInt(rng, i + 1);
    [perm[i], perm[j]] = [perm[j], perm[i]];
  }
  return perm;
}

/** rank[e] = position of element e in the permutation. */
function ranksOf(perm: readonly number[]): number[] {
  const rank = new Array<number>(perm.length);
  perm.forEach((element, position) => (rank[element] = position));
  return rank;
}

export interface MixedItem<T> {
  item: T;
  isGold: boolean;
}

/** Gold items to mix in: round(rate × regular), halves rounded up, capped by the gold available. */
export function goldCount(regularCount: number, goldAvailable: number, rate: number): number {
  if (!Number.isFinite(rate) || rate < 0 || rate > 1)
    throw new RangeError(`gold rate must be between 0 and 1, got ${rate}`);
  // The epsilon keeps an exact half up when the product lands a hair below it (0.35 × 10 = 3.4999…).
  return Math.min(Math.floor(rate * regularCount + 0.5 + 1e-9), goldAvailable);
}

/**
 * Mixes gold items among regular ones.
 *
 * Rule: g = goldCount(regular.length, gold.length, rate). The g gold items are a seeded random
 * choice from `gold` (all of them when g = gold.length, in a seeded order); they take g seeded
 * random slots among the regular.length + g positions, each set of slots equally likely. Regular
 * items keep their relative order. The same inputs and seed give the same list.
 */
export function mixGold<T>(regular: readonly T[], gold: readonly T[], rate: number, seed: number): MixedItem<T>[] {
  assertSeed(seed);
  const g = goldCount(regular.length, gold.length, rate);
  const rng = createRng(seed);
  const chosenGold = shuffle(gold.length, rng)
    .slice(0, g)
    .map((i) => gold[i]);

  const length = regular.length + g;
  const slotRank = ranksOf(shuffle(length, rng));
  const out: MixedItem<T>[] = [];
  let nextRegular = 0;
  let nextGold = 0;
  for (let slot = 0; slot < length; slot++) {
    if (slotRank[slot] < g) out.push({ item: chosenGold[nextGold++], isGold: true });
    else out.push({ item: regular[nextRegular++], isGold: false });
  }
  return out;
}

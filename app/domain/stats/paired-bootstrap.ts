/**
 * Paired cluster bootstrap for the difference of two dependent correlations with a shared
 * reference: r(ref, a) − r(ref, b) on the same units, resampling whole clusters (trajectories)
 * with replacement so that units of one trajectory, which are not independent, stay together.
 *
 * Speed: a draw depends only on which clusters were drawn, so each cluster's sums (count, the
 * three sums and the five sums of squares and products, of values centred at the full-sample
 * means to keep the one-pass formulas accurate) are computed once; a draw then costs O(clusters)
 * with no allocation. Whether a draw is constant in a variable is tracked exactly (per-cluster
 * constant value), not guessed from a rounded variance.
 */
import { DEFAULT_DRAWS, DEFAULT_SEED, quantileSorted } from "./bootstrap.ts";
import { StatsInputError } from "./errors.ts";
import { createRng, randomInt } from "./rng.ts";

/** One unit: its cluster (trajectory = run id), the reference value and the two methods' values. */
export interface ClusteredTriple {
  cluster: string;
  reference: number;
  a: number;
  b: number;
}
export interface PairedDifferenceBootstrap {
  draws: number;
  seed: number;
  level: number;
  /** Percentile interval of r(ref, a) − r(ref, b) over the defined draws; null when none is defined. */
  ci: [number, number] | null;
  /** Draws where a correlation was undefined (constant values), left out. */
  undefinedDraws: number;
  /** Share of defined draws with r(ref,a) − r(ref,b) ≥ 0 (a one-sided bootstrap reading), null when none. */
  shareAtLeastZero: number | null;
  /**
   * Why there is no interval: no defined draw, or a single cluster (every draw repeats it, so the spread would read as
   * zero).
   */
  reason?: string;
}
export interface PairedBootstrapOptions {
  draws?: number;
  seed?: number;
  level?: number;
}

const DEFAULT_LEVEL = 0.95;
const MIN_UNITS = 3; // as pearson(): fewer pairs give no correlation
const SUMS = 9; // count, Σr, Σa, Σb, Σr², Σa², Σb², Σr·a, Σr·b
const VARS = 3; // reference, a, b

/** Resamples clusters with replacement (every unit of a drawn cluster comes along), same seed ⇒ same result. */
export function pairedDifferenceBootstrap(
  units: readonly ClusteredTriple[],
  options: PairedBootstrapOptions = {},
): PairedDifferenceBootstrap {
  const draws = options.draws ?? DEFAULT_DRAWS;
  const seed = options.seed ?? DEFAULT_SEED;
  const level = options.level ?? DEFAULT_LEVEL;
  if (typeof level !== "number" || !(level > 0 && level < 1)) {
    throw new StatsInputError(`level must be a number strictly between 0 and 1 (got ${String(level)})`);
  }
  const samples = pairedDifferenceSamples(units, { draws, seed });
  const defined = samples.filter((d): d is number => d !== null).sort((x, y) => x - y);
  if (defined.length === 0)
    return {
      draws,
      seed,
      level,
      ci: null,
      undefinedDraws: draws,
      shareAtLeastZero: null,
      reason: "no draw has a defined difference",
    };
  if (new Set(units.map((u) => u.cluster)).size < 2) {
    return {
      draws,
      seed,
      level,
      ci: null,
      undefinedDraws: draws - defined.length,
      shareAtLeastZero: null,
      reason: "one cluster: resampling clusters needs at least two",
    };
  }
  let atLeastZero = 0;
  for (const d of defined) if (d >= 0) atLeastZero++;
  return {
    draws,
    seed,
    level,
    ci: [quantileSorted(defined, (1 - level) / 2), quantileSorted(defined, (1 + level) / 2)],
    undefinedDraws: draws - defined.length,
    shareAtLeastZero: atLeastZero / defined.length,
  };
}

/**
 * r(ref, a) − r(ref, b) for each draw, null where a correlation is undefined, in draw order.
 * Clusters are numbered in order of first appearance in `units`; draw d picks that many clusters
 * with randomInt(rng, clusters), one after another from a single createRng(seed).
 */
export function pairedDifferenceSamples(
  units: readonly ClusteredTriple[],
  opts: { draws: number; seed: number },
): (number | null)[] {
  const { draws, seed } = opts;
  if (!Number.isInteger(draws) || draws < 1)
    throw new StatsInputError(`draws must be a positive integer, got ${draws}`);
  if (!Number.isInteger(seed)) throw new StatsInputError(`seed must be an integer, got ${seed}`);
  const table = clusterTable(units);
  const C = table.clusters;
  const out = new Array<number | null>(draws);
  if (C === 0) return out.fill(null);

  const { sums, constant } = table;
  const rng = createRng(seed);
  const acc = new Float64Array(SUMS);
  // Per variable: the constant value the draw has shown so far (NaN: none yet), and whether it varies.
  const first = new Float64Array(VARS);
  const varies = new Uint8Array(VARS);
  for (let d = 0; d < draws; d++) {
    acc.fill(0);
    first.fill(NaN);
    varies.fill(0);
    for (let i = 0; i < C; i++) {
      const c = randomInt(rng, C);
      for (let s = 0; s < SUMS; s++) acc[s] += sums[c * SUMS + s];
      for (let v = 0; v < VARS; v++) {
        if (varies[v]) continue;
        const value = constant[c * VARS + v];
        if (Number.isNaN(value) || (!Number.isNaN(first[v]) && value !== first[v])) varies[v] = 1;
        else first[v] = value;
      }
    }
    out[d] = varies[0] && varies[1] && varies[2] ? differenceFromSums(acc) : null;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

interface ClusterTable {
  clusters: number;
  /** SUMS numbers per cluster, of values centred at the full-sample means. */
  sums: Float64Array;
  /** VARS numbers per cluster: the variable's value when constant within the cluster, else NaN. */
  constant: Float64Array;
}

function clusterTable(units: readonly ClusteredTriple[]): ClusterTable {
  if (!Array.isArray(units)) throw new StatsInputError("units must be an array of { cluster, reference, a, b }");
  const index = new Map<string, number>();
  const of = new Int32Array(units.length);
  let mr = 0;
  let ma = 0;
  let mb = 0;
  units.forEach((u, i) => {
    checkUnit(u, i);
    let c = index.get(u.cluster);
    if (c === undefined) index.set(u.cluster, (c = index.size));
    of[i] = c;
    mr += u.reference;
    ma += u.a;
    mb += u.b;
  });
  const C = index.size;
  mr /= units.length || 1;
  ma /= units.length || 1;
  mb /= units.length || 1;
  const sums = new Float64Array(C * SUMS);
  const constant = new Float64Array(C * VARS);
  const seen = new Uint8Array(C);
  units.forEach((u, i) => {
    const o = of[i] * SUMS;
    const r = u.reference - mr;
    const a = u.a - ma;
    const b = u.b - mb;
    const terms = [1, r, a, b, r * r, a * a, b * b, r * a, r * b];
    for (let s = 0; s < SUMS; s++) sums[o + s] += terms[s];
    const k = of[i] * VARS;
    const raw = [u.reference, u.a, u.b];
    for (let v = 0; v < VARS; v++) {
      if (!seen[of[i]]) constant[k + v] = raw[v];
      else if (constant[k + v] !== raw[v]) constant[k + v] = NaN;
    }
    seen[of[i]] = 1;
  });
  return { clusters: C, sums, constant };
}

function checkUnit(u: ClusteredTriple, i: number): void {
  if (u === null || typeof u !== "object") throw new StatsInputError(`units[${i}] is not an object`);
  if (typeof u.cluster !== "string") throw new StatsInputError(`units[${i}].cluster must be a string`);
  for (const field of ["reference", "a", "b"] as const) {
    const v = u[field];
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw new StatsInputError(
        `units[${i}].${field} is not a finite number (got ${typeof v === "number" ? v : typeof v})`,
      );
    }
  }
}

/** r(ref, a) − r(ref, b) from a draw's sums (layout SUMS), null when either is undefined. */
function differenceFromSums(acc: Float64Array): number | null {
  const n = acc[0];
  if (n < MIN_UNITS) return null;
  const rA = correlationFromSums(n, acc[1], acc[2], acc[4], acc[5], acc[7]);
  const rB = correlationFromSums(n, acc[1], acc[3], acc[4], acc[6], acc[8]);
  return rA === null || rB === null ? null : rA - rB;
}

/** Pearson r from one-pass sums; null when a centred sum of squares is not positive (rounding). */
function correlationFromSums(n: number, sx: number, sy: number, sxx: number, syy: number, sxy: number): number | null {
  const cxx = sxx - (sx * sx) / n;
  const cyy = syy - (sy * sy) / n;
  if (!(cxx > 0) || !(cyy > 0)) return null;
  const r = (sxy - (sx * sy) / n) / Math.sqrt(cxx) / Math.sqrt(cyy);
  return Math.max(-1, Math.min(1, r));
}

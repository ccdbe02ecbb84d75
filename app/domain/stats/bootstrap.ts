/**
 * Bootstrap for Krippendorff's alpha: resample units with replacement, recompute alpha.
 *
 * Only pairable units (two or more ratings) are resampled: the others carry no pairing
 * information and would only make the effective sample size of a draw random.
 *
 * Speed: alpha depends on a draw only through how often each unit was drawn. Units with the same
 * multiset of ratings ("patterns") contribute identically, so each pattern's share of the
 * coincidence matrix and of the marginals is computed once; a draw then costs one counter
 * increment per drawn unit plus O(patterns + V) to assemble alpha — and, at the ratio level, the
 * quadratic expected sum over the present values, direct or incremental (RatioDrawSums). The result
 * is the same alpha a full recomputation on the resampled matrix gives (up to float summation order).
 */
import {
  readUnit,
  alphaFromSums,
  assertLevel,
  checkShape,
  countPresent,
  MetricKernel,
  ValueCoder,
  type AlphaLevel,
  type RatingValue,
} from "./krippendorff.ts";
import { RatioDrawSums } from "./ratio-kernel.ts";
import { createRng } from "./rng.ts";
import { StatsInputError } from "./errors.ts";

export interface AlphaBootstrap {
  draws: number;
  seed: number;
  ci: [number, number] | null; // percentile 95% interval over the draws where alpha is defined
  pBelow: Record<string, number>; // share of defined draws with alpha < threshold, keyed String(threshold)
  undefinedDraws: number;
}

export interface BootstrapOptions {
  draws?: number;
  seed?: number;
  thresholds?: number[];
}

export const DEFAULT_DRAWS = 1000;
export const DEFAULT_SEED = 1;
export const DEFAULT_THRESHOLDS: readonly number[] = [0.667, 0.8];

export function bootstrapAlpha(data: RatingValue[][], level: AlphaLevel, opts: BootstrapOptions = {}): AlphaBootstrap {
  const draws = opts.draws ?? DEFAULT_DRAWS;
  const seed = opts.seed ?? DEFAULT_SEED;
  const thresholds = opts.thresholds ?? DEFAULT_THRESHOLDS;
  for (const t of thresholds) {
    if (!Number.isFinite(t)) throw new StatsInputError(`bootstrap threshold ${t} is not a finite number`);
  }
  const samples = bootstrapAlphaSamples(data, level, { draws, seed });
  const defined = samples.filter((a): a is number => a !== null).sort((a, b) => a - b);
  const pBelow: Record<string, number> = {};
  if (defined.length > 0) {
    for (const t of thresholds) pBelow[String(t)] = defined.filter((a) => a < t).length / defined.length;
  }
  return {
    draws,
    seed,
    ci: defined.length > 0 ? [quantileSorted(defined, 0.025), quantileSorted(defined, 0.975)] : null,
    pBelow,
    undefinedDraws: draws - defined.length,
  };
}

/**
 * Alpha for each bootstrap draw (null where alpha is undefined), in draw order. Draw d picks P
 * pairable units (P = number of pairable units, in column order) with randomInt(rng, P).
 */
export function bootstrapAlphaSamples(
  data: RatingValue[][],
  level: AlphaLevel,
  opts: { draws: number; seed: number },
): (number | null)[] {
  assertLevel(level);
  const { draws, seed } = opts;
  if (!Number.isInteger(draws) || draws < 1)
    throw new StatsInputError(`draws must be a positive integer, got ${draws}`);
  if (!Number.isInteger(seed)) throw new StatsInputError(`seed must be an integer, got ${seed}`);

  const table = buildPatterns(data, level);
  const P = table.unitPattern.length;
  if (P === 0) return new Array<null>(draws).fill(null);

  const { patternCount, V } = table;
  const kernel = new MetricKernel(level, table.values);
  const fixedPos = level === "ordinal" ? null : kernel.positions(new Float64Array(V), V);
  // For levels whose δ² does not depend on the marginals, each pattern's observed sum is fixed.
  const fixedObserved = level === "ordinal" ? null : patternObserved(table, kernel, fixedPos);
  const ratio = level === "ratio" ? new RatioDrawSums(fixedPos!, fullMarginals(table), V) : null;

  const rng = createRng(seed);
  const counts = new Float64Array(patternCount);
  const marginals = new Float64Array(V);
  const out: (number | null)[] = new Array<number | null>(draws);

  for (let d = 0; d < draws; d++) {
    counts.fill(0);
    // randomInt(rng, P) inlined (P ≥ 1 is a length, so its argument check is moot): the hottest loop.
    for (let i = 0; i < P; i++) counts[table.unitPattern[Math.floor(rng() * P)]] += 1;

    marginals.fill(0);
    let nTotal = 0;
    let observedSum = 0;
    for (let p = 0; p < patternCount; p++) {
      const k = counts[p];
      if (k === 0) continue;
      for (let i = table.valueStart[p]; i < table.valueStart[p + 1]; i++) marginals[table.valueCodes[i]] += k;
      nTotal += k * (table.valueStart[p + 1] - table.valueStart[p]);
      if (fixedObserved !== null) observedSum += k * fixedObserved[p];
    }

    const pos = level === "ordinal" ? kernel.positions(marginals, V) : fixedPos;
    if (fixedObserved === null) {
      for (let p = 0; p < patternCount; p++) {
        const k = counts[p];
        if (k === 0) continue;
        for (let i = table.pairStart[p]; i < table.pairStart[p + 1]; i++) {
          observedSum += k * 2 * table.pairWeight[i] * kernel.delta(pos, table.pairA[i], table.pairB[i]);
        }
      }
    }
    const expectedSum = ratio !== null ? ratio.expectedSum(marginals) : kernel.expectedSum(pos, marginals, V, nTotal);
    out[d] = alphaFromSums(level, P, nTotal, countPresent(marginals, V), observedSum, expectedSum).alpha;
  }
  return out;
}

/** Percentile with linear interpolation between order statistics (numpy's default). */
export function quantileSorted(sorted: readonly number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

interface PatternTable {
  values: (number | string)[];
  V: number;
  patternCount: number;
  unitPattern: Int32Array; // pattern of each pairable unit
  valueStart: Int32Array; // pattern p's rating codes are valueCodes[valueStart[p] .. valueStart[p+1])
  valueCodes: Int32Array;
  pairStart: Int32Array; // pattern p's unordered unequal pairs are pair*[pairStart[p] .. pairStart[p+1])
  pairA: Int32Array;
  pairB: Int32Array;
  pairWeight: Float64Array; // 1 / (m − 1)
}

/** Groups the pairable units by their sorted multiset of rating codes. */
function buildPatterns(data: RatingValue[][], level: AlphaLevel): PatternTable {
  const unitCount = checkShape(data);
  const coder = new ValueCoder(level);
  const codes = new Int32Array(data.length);
  const byKey = new Map<string, number>();
  const unitPattern: number[] = [];
  const valueStart: number[] = [0];
  const valueCodes: number[] = [];
  const pairStart: number[] = [0];
  const pairA: number[] = [];
  const pairB: number[] = [];
  const pairWeight: number[] = [];

  for (let u = 0; u < unitCount; u++) {
    const m = readUnit(data, u, coder, codes);
    if (m < 2) continue;
    const sorted = codes.subarray(0, m).sort();
    const key = sorted.join(",");
    let p = byKey.get(key);
    if (p === undefined) {
      p = byKey.size;
      byKey.set(key, p);
      const w = 1 / (m - 1);
      for (let i = 0; i < m; i++) {
        valueCodes.push(sorted[i]);
        for (let j = i + 1; j < m; j++) {
          if (sorted[i] === sorted[j]) continue;
          pairA.push(sorted[i]);
          pairB.push(sorted[j]);
          pairWeight.push(w);
        }
      }
      valueStart.push(valueCodes.length);
      pairStart.push(pairA.length);
    }
    unitPattern.push(p);
  }

  return {
    values: coder.values,
    V: coder.size,
    patternCount: byKey.size,
    unitPattern: Int32Array.from(unitPattern),
    valueStart: Int32Array.from(valueStart),
    valueCodes: Int32Array.from(valueCodes),
    pairStart: Int32Array.from(pairStart),
    pairA: Int32Array.from(pairA),
    pairB: Int32Array.from(pairB),
    pairWeight: Float64Array.from(pairWeight),
  };
}

/** The marginals of the full data (every pairable unit once): the ratio draws' reference point. */
function fullMarginals(table: PatternTable): Float64Array {
  const marginals = new Float64Array(table.V);
  for (let u = 0; u < table.unitPattern.length; u++) {
    const p = table.unitPattern[u];
    for (let i = table.valueStart[p]; i < table.valueStart[p + 1]; i++) marginals[table.valueCodes[i]] += 1;
  }
  return marginals;
}

function patternObserved(table: PatternTable, kernel: MetricKernel, pos: Float64Array | null): Float64Array {
  const out = new Float64Array(table.patternCount);
  for (let p = 0; p < table.patternCount; p++) {
    let sum = 0;
    for (let i = table.pairStart[p]; i < table.pairStart[p + 1]; i++) {
      sum += 2 * table.pairWeight[i] * kernel.delta(pos, table.pairA[i], table.pairB[i]);
    }
    out[p] = sum;
  }
  return out;
}

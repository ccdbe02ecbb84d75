/**
 * Bootstrap for Krippendorff's alpha: resample units with replacement, recompute alpha.
 *
 * Only pairable units (two or more ratings) are resampled: the others carry no pairing
 * information and would only make the effective sample size of a draw random.
 *
 * Speed: alpha depends on a draw only through how often each unit was drawn. The one pass of
 * alpha-units.ts keeps each unit's figures (its observed share, and its mean and M2 or its value
 * codes), so a draw is one counter increment per drawn unit (or per group of interchangeable
 * units, bootstrap-groups.ts) and then a weighted sum over them: for the interval level four sums
 * (the pooled M2 follows from the units' centred sums); for the coded levels the marginals, then
 * the expected sum as in krippendorff.ts — at the ratio level through a low-rank factor of the
 * kernel built once (ratio-low-rank.ts), pair by pair (RatioDrawSums) when that is not trusted.
 * Except for ordinal, two draws share each pass over the units or groups. The result is the alpha
 * a full recomputation on the resampled matrix gives, up to float summation order.
 */
import {
  alphaFromSums,
  assertLevel,
  checkShape,
  midRanks,
  ordinalUnitShare,
  positionExpectedSum,
  sortedCodes,
  type AlphaLevel,
  type RatingValue,
} from "./krippendorff.ts";
import { scanUnits, type UnitScan, type UnitTable } from "./alpha-units.ts";
import { groupCodedUnits, type Grouping } from "./bootstrap-groups.ts";
import { RatioDrawSums } from "./ratio-kernel.ts";
import { RatioLowRank } from "./ratio-low-rank.ts";
import { UniformStream } from "./rng.ts";
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

  const scan = scanUnits(data, checkShape(data), level, true);
  const P = scan.units;
  if (P === 0) return new Array<null>(draws).fill(null);
  const stream = new UniformStream(seed);
  if (level === "interval") return intervalSamples(scan, stream, draws);
  return level === "ordinal" ? ordinalSamples(scan, stream, draws) : codedSamples(scan, stream, draws);
}

/**
 * Interval: with each unit's values centred on the pooled mean μ of the full data, a unit gives
 * s1 = m (mean_u − μ) and s2 = M2_u + m (mean_u − μ)²; a draw's pooled M2 is S2 − S1² / n.., with
 * S1 small beside S2 (draws stay near μ), so nothing cancels. Draws go two at a time: the pass
 * over the units' rows is bound by memory traffic, which two draws share.
 */
function intervalSamples(scan: UnitScan, stream: UniformStream, draws: number): (number | null)[] {
  // primeFeedback (here and below): V8 compiles a hot loop while it first runs (on-stack
  // replacement), before the code after it has run, then lacks type feedback there and deoptimises
  // at the loop's end, sending the next whole pass through the interpreter. One call with nothing
  // to loop over runs that code first.
  const table = scan.table!;
  const P = table.count;
  const { size, mean, m2, varied } = table;
  const observed = table.observed!;
  const rows = new Float64Array(4 * P); // per unit: m, observed share, s1, s2
  for (let i = 0; i < P; i++) {
    const d = mean![i] - scan.mean;
    rows[4 * i] = size[i];
    rows[4 * i + 1] = observed[i];
    rows[4 * i + 2] = size[i] * d;
    rows[4 * i + 3] = m2![i] + size[i] * d * d;
  }
  const variedUnits: number[] = []; // units holding two different values
  for (let i = 0; i < P; i++) if (varied![i] === 1) variedUnits.push(i);
  const isVaried = (counts: Int32Array) => variedUnits.some((i) => counts[i] !== 0) || constantsDiffer(table, counts);
  const sums = new Float64Array(8);
  const alphaAt = (at: number, variedDraw: boolean) => {
    const nTotal = sums[at];
    const expectedSum = 2 * (nTotal * sums[at + 3] - sums[at + 2] * sums[at + 2]);
    return alphaFromSums("interval", P, nTotal, variedDraw, sums[at + 1], expectedSum).alpha;
  };
  const first = new Int32Array(P);
  const second = new Int32Array(P); // all 0 when the last draw has no partner
  pairSums(first, second, 0, rows, sums); // see primeFeedback
  const out: (number | null)[] = new Array<number | null>(draws);
  for (let d = 0; d < draws; d += 2) {
    const both = d + 1 < draws;
    // The units randomInt(rng, P) would pick, P times: the hottest loop.
    stream.countPicks(first, P, P);
    if (both) stream.countPicks(second, P, P);
    const firstVaried = isVaried(first);
    const secondVaried = both && isVaried(second);
    pairSums(first, second, P, rows, sums);
    out[d] = alphaAt(0, firstVaried);
    if (both) out[d + 1] = alphaAt(4, secondVaried);
  }
  return out;
}

/**
 * Σ k_u · (m_u, observed_u, s1_u, s2_u) over the units for two draws' counts `a` and `b`, into
 * out[0..3] and out[4..7], clearing the counts. A plain function of typed arrays with no rare
 * branch, so V8 optimises it once (as a closure it kept deoptimising). No skip for k = 0 either: a
 * mispredicted branch costs more than the products.
 */
function pairSums(a: Int32Array, b: Int32Array, P: number, rows: Float64Array, out: Float64Array): void {
  let nTotal = 0;
  let observedSum = 0;
  let sum1 = 0;
  let sum2 = 0;
  let nTotalB = 0;
  let observedSumB = 0;
  let sum1B = 0;
  let sum2B = 0;
  for (let i = 0; i < P; i++) {
    const k = a[i];
    const kb = b[i];
    a[i] = 0;
    b[i] = 0;
    const r = 4 * i;
    const m = rows[r];
    const o = rows[r + 1];
    const x = rows[r + 2];
    const y = rows[r + 3];
    nTotal += k * m;
    observedSum += k * o;
    sum1 += k * x;
    sum2 += k * y;
    nTotalB += kb * m;
    observedSumB += kb * o;
    sum1B += kb * x;
    sum2B += kb * y;
  }
  out[0] = nTotal;
  out[1] = observedSum;
  out[2] = sum1;
  out[3] = sum2;
  out[4] = nTotalB;
  out[5] = observedSumB;
  out[6] = sum1B;
  out[7] = sum2B;
}

/** For a draw of single-valued groups only: whether two of them hold different values. */
function constantsDiffer(table: UnitTable, counts: Int32Array): boolean {
  let seen: number | null = null;
  for (let i = 0; i < table.count; i++) {
    if (counts[i] === 0) continue;
    const v = table.first![i];
    if (seen === null) seen = v;
    else if (v !== seen) return true;
  }
  return false;
}

/**
 * Nominal and ratio: the draw's marginals from the codes, then the expected sum. Units with the
 * same multiset of codes count as one group (a draw sees only how often each group was picked),
 * so a draw's pass is over the groups (bootstrap-groups.ts), two draws a pass as for interval.
 */
function codedSamples(scan: UnitScan, stream: UniformStream, draws: number): (number | null)[] {
  const { level } = scan;
  const P = scan.units;
  const V = scan.values.length;
  const { groupOf, groups, figures } = groupFigures(scan);
  const G = groups.count;
  const expected = expectedSumOfDraw(scan);
  const first = new Int32Array(G);
  const second = new Int32Array(G); // all 0 when the last draw has no partner
  const firstMarginals = new Float64Array(V);
  const secondMarginals = new Float64Array(V);
  const sums = new Float64Array(4);
  const alphaOf = (marginals: Float64Array, nTotal: number, observedSum: number) =>
    alphaFromSums(level, P, nTotal, twoPresent(marginals, V), observedSum, expected(marginals, nTotal)).alpha;
  pairMarginals(first, second, 0, figures, firstMarginals, secondMarginals, sums); // see primeFeedback
  const out: (number | null)[] = new Array<number | null>(draws);
  for (let d = 0; d < draws; d += 2) {
    const both = d + 1 < draws;
    // The units randomInt(rng, P) would pick, P times, counted by group: the hottest loop.
    stream.countPicks(first, P, P, groupOf);
    if (both) stream.countPicks(second, P, P, groupOf);
    firstMarginals.fill(0);
    secondMarginals.fill(0);
    pairMarginals(first, second, G, figures, firstMarginals, secondMarginals, sums);
    out[d] = alphaOf(firstMarginals, sums[0], sums[1]);
    if (both) out[d + 1] = alphaOf(secondMarginals, sums[2], sums[3]);
  }
  return out;
}

/** Ordinal: δ² depends on the draw's marginals, so the observed sum takes a second pass over the groups. */
function ordinalSamples(scan: UnitScan, stream: UniformStream, draws: number): (number | null)[] {
  const P = scan.units;
  const V = scan.values.length;
  const { groupOf, groups, figures } = groupFigures(scan);
  const G = groups.count;
  const { codes, start } = figures;
  const order = sortedCodes(scan.values as number[]);
  const counts = new Int32Array(G);
  const marginals = new Float64Array(V);
  const out: (number | null)[] = new Array<number | null>(draws);
  weightedMarginals(counts, 0, figures, marginals); // see primeFeedback
  for (let d = 0; d < draws; d++) {
    stream.countPicks(counts, P, P, groupOf);
    marginals.fill(0);
    const nTotal = weightedMarginals(counts, G, figures, marginals);
    const pos = midRanks(order, marginals, V);
    let observedSum = 0;
    for (let g = 0; g < G; g++) {
      const k = counts[g];
      if (k === 0) continue;
      counts[g] = 0;
      observedSum += k * ordinalUnitShare(codes, start[g], start[g + 1], pos);
    }
    const expectedSum = positionExpectedSum(pos, marginals, V, nTotal);
    out[d] = alphaFromSums("ordinal", P, nTotal, twoPresent(marginals, V), observedSum, expectedSum).alpha;
  }
  return out;
}

function twoPresent(marginals: Float64Array, V: number): boolean {
  let present = 0;
  for (let c = 0; c < V && present < 2; c++) if (marginals[c] !== 0) present++;
  return present >= 2;
}

/** The groups' figures the passes read; the first `pairs` groups hold two codes each. */
interface GroupFigures {
  pairs: number;
  size: Int32Array;
  start: Int32Array;
  codes: Int32Array;
  observed: Float64Array; // empty for ordinal
}

function groupFigures(scan: UnitScan): Grouping & { figures: GroupFigures } {
  const { groupOf, groups, pairs } = groupCodedUnits(scan.table!, scan.values.length);
  const figures = {
    pairs,
    size: groups.size,
    start: groups.start!,
    codes: groups.codes!,
    observed: groups.observed ?? new Float64Array(0),
  };
  return { groupOf, groups, figures };
}

/**
 * Two draws' marginals from their counts `a` and `b`, with Σ k_g m_g and Σ k_g observed_g into
 * out[0..1] and out[2..3], clearing the counts; as pairSums. The two-code groups go first without
 * an inner loop: a loop of two turns per group cost more than its body.
 */
function pairMarginals(
  a: Int32Array,
  b: Int32Array,
  G: number,
  figures: GroupFigures,
  marginalsA: Float64Array,
  marginalsB: Float64Array,
  out: Float64Array,
): void {
  const { size, start, codes, observed } = figures;
  const pairs = Math.min(figures.pairs, G);
  let pickedA = 0; // picks of two-code groups
  let pickedB = 0;
  let observedA = 0;
  let observedB = 0;
  for (let g = 0; g < pairs; g++) {
    const ka = a[g];
    const kb = b[g];
    a[g] = 0;
    b[g] = 0;
    const c1 = codes[2 * g];
    const c2 = codes[2 * g + 1];
    const o = observed[g];
    marginalsA[c1] += ka;
    marginalsA[c2] += ka;
    marginalsB[c1] += kb;
    marginalsB[c2] += kb;
    pickedA += ka;
    pickedB += kb;
    observedA += ka * o;
    observedB += kb * o;
  }
  let nTotalA = 2 * pickedA;
  let nTotalB = 2 * pickedB;
  for (let g = pairs; g < G; g++) {
    const ka = a[g];
    const kb = b[g];
    a[g] = 0;
    b[g] = 0;
    nTotalA += ka * size[g];
    nTotalB += kb * size[g];
    observedA += ka * observed[g];
    observedB += kb * observed[g];
    for (let j = start[g]; j < start[g + 1]; j++) {
      marginalsA[codes[j]] += ka;
      marginalsB[codes[j]] += kb;
    }
  }
  out[0] = nTotalA;
  out[1] = observedA;
  out[2] = nTotalB;
  out[3] = observedB;
}

/** One draw's marginals from its counts (ordinal), returning Σ k_g m_g; the counts stay. */
function weightedMarginals(counts: Int32Array, G: number, figures: GroupFigures, marginals: Float64Array): number {
  const { size, start, codes } = figures;
  const pairs = Math.min(figures.pairs, G);
  let picked = 0; // picks of two-code groups
  for (let g = 0; g < pairs; g++) {
    const k = counts[g];
    marginals[codes[2 * g]] += k;
    marginals[codes[2 * g + 1]] += k;
    picked += k;
  }
  let nTotal = 2 * picked;
  for (let g = pairs; g < G; g++) {
    const k = counts[g];
    nTotal += k * size[g];
    for (let j = start[g]; j < start[g + 1]; j++) marginals[codes[j]] += k;
  }
  return nTotal;
}

/** The expected sum of a draw from its marginals, for nominal and ratio (ordinal: see above). */
function expectedSumOfDraw(scan: UnitScan): (marginals: Float64Array, nTotal: number) => number {
  const V = scan.values.length;
  if (scan.level !== "ratio") {
    return (marginals, nTotal) => {
      let sq = 0;
      for (let c = 0; c < V; c++) sq += marginals[c] * marginals[c];
      return nTotal * nTotal - sq;
    };
  }
  const pos = Float64Array.from(scan.values as number[]);
  const full = scan.marginals;
  const support: number[] = []; // present positive values; a zero is added on its own
  let zero = -1;
  for (let c = 0; c < V; c++) {
    if (full[c] === 0) continue;
    if (pos[c] > 0) support.push(c);
    else zero = c;
  }
  const k = support.length;
  // A draw costs V · rank through the factor against about V² / 2 pairs: worth it while rank < V / 4.
  const factor =
    k >= 64
      ? RatioLowRank.build(
          Float64Array.from(support, (c) => pos[c]),
          k >> 2,
        )
      : null;
  let pairwise: RatioDrawSums | null = null; // built on first need: its set-up is O(V²)
  const w = new Float64Array(k);
  return (marginals) => {
    if (factor !== null) {
      let positiveWeight = 0;
      for (let i = 0; i < k; i++) {
        w[i] = marginals[support[i]];
        positiveWeight += w[i];
      }
      const sum = factor.expectedSum(w);
      if (sum !== null) return sum + 2 * (zero >= 0 ? marginals[zero] : 0) * positiveWeight;
    }
    pairwise ??= new RatioDrawSums(pos, full, V);
    return pairwise.expectedSum(marginals);
  };
}

/** Percentile with linear interpolation between order statistics (numpy's default). */
export function quantileSorted(sorted: readonly number[], q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

/**
 * Pearson, Spearman and Kendall tau-b correlations with two-sided p-values, matching
 * scipy.stats.pearsonr / spearmanr / kendalltau (defaults). Undefined results are null with a
 * reason, never NaN.
 */
import { normalTwoSidedP, studentTTwoSidedP } from "./distributions.ts";
import { StatsInputError } from "./errors.ts";

export interface PearsonResult {
  n: number;
  r: number | null;
  p: number | null;
  ci: [number, number] | null;
  reason?: string;
}
export interface SpearmanResult {
  n: number;
  rho: number | null;
  p: number | null;
  reason?: string;
}
export interface KendallResult {
  n: number;
  tau: number | null;
  p: number | null;
  reason?: string;
}

/** Two-sided 97.5% standard normal quantile, for the 95% Fisher interval. */
const Z_975 = 1.959963984540054;
const MIN_N = 3;

export function pearson(x: number[], y: number[]): PearsonResult {
  const n = checkPaired(x, y);
  const bad = undefinedReason(x, y, n);
  if (bad !== null) return { n, r: null, p: null, ci: null, reason: bad };
  const r = pearsonR(x, y);
  const ci: [number, number] | null =
    n < 4 ? null : [Math.tanh(Math.atanh(r) - Z_975 / Math.sqrt(n - 3)), Math.tanh(Math.atanh(r) + Z_975 / Math.sqrt(n - 3))];
  return { n, r, p: correlationP(r, n), ci };
}

export function spearman(x: number[], y: number[]): SpearmanResult {
  const n = checkPaired(x, y);
  const bad = undefinedReason(x, y, n);
  if (bad !== null) return { n, rho: null, p: null, reason: bad };
  const rho = pearsonR(rankAverage(x), rankAverage(y));
  return { n, rho, p: correlationP(rho, n) };
}

/**
 * Kendall's tau-b in O(n log n) (Knight's algorithm: sort by x then y, count discordant pairs as
 * the inversions of y in that order with a merge sort). p-value as scipy's method='auto': exact
 * permutation distribution when there are no ties and n ≤ 33 (or at most one discordant /
 * concordant pair), otherwise the normal approximation with the tie-corrected variance.
 */
export function kendallTauB(x: number[], y: number[]): KendallResult {
  const n = checkPaired(x, y);
  const bad = undefinedReason(x, y, n);
  if (bad !== null) return { n, tau: null, p: null, reason: bad };

  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => x[a] - x[b] || y[a] - y[b]);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    xs[i] = x[order[i]];
    ys[i] = y[order[i]];
  }

  const xTies = tieStats(xs);
  // Pairs tied in both x and y: runs of equal (x, y) in the sorted order.
  let jointTies = 0;
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && xs[j] === xs[i] && ys[j] === ys[i]) j++;
    const t = j - i;
    jointTies += (t * (t - 1)) / 2;
    i = j;
  }
  const discordant = countInversions(ys); // leaves ys sorted
  const yTies = tieStats(ys);

  const total = (n * (n - 1)) / 2;
  const conMinusDis = total - xTies.pairs - yTies.pairs + jointTies - 2 * discordant;
  const raw = conMinusDis / Math.sqrt(total - xTies.pairs) / Math.sqrt(total - yTies.pairs);
  const tau = Math.max(-1, Math.min(1, raw));

  let p: number;
  const noTies = xTies.pairs === 0 && yTies.pairs === 0;
  if (noTies && (n <= 33 || Math.min(discordant, total - discordant) <= 1)) {
    p = kendallExactP(n, total - discordant);
  } else {
    const m = n * (n - 1);
    const variance =
      (m * (2 * n + 5) - xTies.v1 - yTies.v1) / 18 +
      (2 * xTies.pairs * yTies.pairs) / m +
      (xTies.v0 * yTies.v0) / (9 * m * (n - 2));
    p = normalTwoSidedP(conMinusDis / Math.sqrt(variance));
  }
  return { n, tau, p };
}

/** Ranks 1..n, tied values sharing the mean of the ranks they span (scipy's 'average'). */
export function rankAverage(values: number[]): number[] {
  values.forEach((v, i) => checkFinite(v, `values[${i}]`));
  const n = values.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a] - values[b]);
  const ranks = new Array<number>(n);
  for (let i = 0; i < n; ) {
    let j = i + 1;
    while (j < n && values[order[j]] === values[order[i]]) j++;
    const rank = (i + 1 + j) / 2; // mean of ranks i+1 .. j
    for (let k = i; k < j; k++) ranks[order[k]] = rank;
    i = j;
  }
  return ranks;
}

// ---------------------------------------------------------------------------------------------

function checkFinite(v: unknown, where: string): void {
  if (typeof v !== "number" || !Number.isFinite(v)) {
    throw new StatsInputError(`${where} is not a finite number (got ${typeof v === "number" ? v : typeof v})`);
  }
}

/** Validates paired samples and returns n. */
function checkPaired(x: number[], y: number[]): number {
  if (!Array.isArray(x) || !Array.isArray(y)) throw new StatsInputError("x and y must be arrays of numbers");
  if (x.length !== y.length) {
    throw new StatsInputError(`x and y differ in length (${x.length} vs ${y.length}); index ${Math.min(x.length, y.length)} has no partner`);
  }
  for (let i = 0; i < x.length; i++) {
    checkFinite(x[i], `x[${i}]`);
    checkFinite(y[i], `y[${i}]`);
  }
  return x.length;
}

function undefinedReason(x: number[], y: number[], n: number): string | null {
  if (n < MIN_N) return `n = ${n}: at least ${MIN_N} pairs are needed`;
  // Exact comparison: a centred sum of squares of a constant can come out as a tiny non-zero.
  if (x.every((v) => v === x[0])) return "x is constant (zero variance)";
  if (y.every((v) => v === y[0])) return "y is constant (zero variance)";
  return null;
}

function pearsonR(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  const r = sxy / Math.sqrt(sxx) / Math.sqrt(syy);
  return Math.max(-1, Math.min(1, r));
}

/** Two-sided p for H0: correlation 0, via t = r·sqrt((n−2)/(1−r²)) with n−2 df. */
function correlationP(r: number, n: number): number {
  const df = n - 2;
  if (Math.abs(r) === 1) return 0;
  return studentTTwoSidedP(r * Math.sqrt(df / ((1 + r) * (1 - r))), df);
}

interface TieStats {
  pairs: number; // Σ t(t−1)/2 over groups of t tied values
  v0: number; // Σ t(t−1)(t−2)
  v1: number; // Σ t(t−1)(2t+5)
}

/** Tie statistics of a sorted sequence. */
function tieStats(sorted: Float64Array): TieStats {
  const s: TieStats = { pairs: 0, v0: 0, v1: 0 };
  for (let i = 0; i < sorted.length; ) {
    let j = i + 1;
    while (j < sorted.length && sorted[j] === sorted[i]) j++;
    const t = j - i;
    if (t > 1) {
      s.pairs += (t * (t - 1)) / 2;
      s.v0 += t * (t - 1) * (t - 2);
      s.v1 += t * (t - 1) * (2 * t + 5);
    }
    i = j;
  }
  return s;
}

/** Number of pairs i < j with a[i] > a[j] (equal values are not inversions); sorts a in place. */
function countInversions(a: Float64Array): number {
  const n = a.length;
  let src: Float64Array = a;
  let dst: Float64Array = new Float64Array(n);
  let inversions = 0;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        if (src[j] < src[i]) {
          inversions += mid - i; // src[j] jumps ahead of every remaining left element
          dst[k++] = src[j++];
        } else {
          dst[k++] = src[i++];
        }
      }
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    [src, dst] = [dst, src];
  }
  if (src !== a) a.set(src);
  return inversions;
}

/**
 * Exact two-sided p for Kendall's tau without ties: 2·P(C ≤ min(c, total − c)), C = concordant
 * pairs of a uniformly random permutation (the inversion count distribution), clipped to 1.
 */
function kendallExactP(n: number, concordant: number): number {
  const total = (n * (n - 1)) / 2;
  const c = Math.min(concordant, total - concordant);
  if (c === 0) return clamp1(2 / factorial(n));
  if (c === 1) return clamp1(2 / factorial(n - 1));
  if (4 * c === n * (n - 1)) return 1;
  // dist[k] ∝ number of permutations of j items with k inversions, k ≤ c; scaled by 2/j! as we go
  // (start at j = 2, where both counts are 1), so the final sum is the two-sided p directly.
  let dist = new Float64Array(c + 1);
  dist[0] = 1;
  dist[1] = 1;
  for (let j = 3; j <= n; j++) {
    const next = new Float64Array(c + 1);
    let run = 0;
    for (let k = 0; k <= c; k++) {
      run += dist[k];
      if (k >= j) run -= dist[k - j]; // a new item adds 0..j−1 inversions
      next[k] = run / j;
    }
    dist = next;
  }
  let p = 0;
  for (let k = 0; k <= c; k++) p += dist[k];
  return clamp1(p);
}

function factorial(k: number): number {
  let f = 1;
  for (let i = 2; i <= k; i++) f *= i;
  return f; // Infinity beyond 170!, giving p = 0 as scipy does
}

function clamp1(p: number): number {
  return p > 1 ? 1 : p < 0 ? 0 : p;
}

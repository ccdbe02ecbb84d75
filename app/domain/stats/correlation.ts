/**
 * Pearson, Spearman and Kendall tau-b correlations with two-sided p-values, matching
 * scipy.stats.pearsonr / kendalltau (defaults) and, for Spearman, spearmanr's t approximation or
 * the exact permutation p (rank-exact-p.ts). Spearman and Kendall results say which p they carry.
 * Undefined results are null with a reason, never NaN.
 */
import { normalTwoSidedP, studentTTwoSidedP } from "./distributions.ts";
import { StatsInputError } from "./errors.ts";
import {
  kendallExactApplies,
  kendallExactP,
  spearmanExactApplies,
  spearmanExactP,
  type PValueMethod,
} from "./rank-exact-p.ts";

export type { PValueMethod } from "./rank-exact-p.ts";

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
  /** Where p came from; null when p is. */
  method: PValueMethod | null;
  reason?: string;
}
export interface KendallResult {
  n: number;
  tau: number | null;
  p: number | null;
  /** Where p came from; null when p is. */
  method: PValueMethod | null;
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
    n < 4
      ? null
      : [Math.tanh(Math.atanh(r) - Z_975 / Math.sqrt(n - 3)), Math.tanh(Math.atanh(r) + Z_975 / Math.sqrt(n - 3))];
  return { n, r, p: correlationP(r, n), ci };
}

/**
 * Spearman's ρ (Pearson of the average ranks). p is exact without ties for n ≤ 12 (and for equal
 * or reversed rankings at any n, see spearmanExactApplies), else spearmanr's t approximation.
 */
export function spearman(x: number[], y: number[]): SpearmanResult {
  const n = checkPaired(x, y);
  const bad = undefinedReason(x, y, n);
  if (bad !== null) return { n, rho: null, p: null, method: null, reason: bad };
  const rx = rankAverage(x);
  const ry = rankAverage(y);
  if (!hasTies(x) && !hasTies(y)) {
    // Without ties the ranks are the integers 1..n, so Σd² is an exact integer, and ρ from it is
    // exactly ±1 for equal or reversed rankings (the Pearson form can miss by an ulp).
    let sumSq = 0;
    for (let i = 0; i < n; i++) sumSq += (rx[i] - ry[i]) ** 2;
    const rho = 1 - (6 * sumSq) / (n * (n * n - 1));
    const exact = spearmanExactApplies(n, sumSq);
    return {
      n,
      rho,
      p: exact ? spearmanExactP(n, sumSq) : correlationP(rho, n),
      method: exact ? "exact" : "asymptotic",
    };
  }
  const rho = pearsonR(rx, ry);
  return { n, rho, p: correlationP(rho, n), method: "asymptotic" };
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
  if (bad !== null) return { n, tau: null, p: null, method: null, reason: bad };

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

  const noTies = xTies.pairs === 0 && yTies.pairs === 0;
  if (noTies && kendallExactApplies(n, discordant)) {
    return { n, tau, p: kendallExactP(n, total - discordant), method: "exact" };
  }
  const m = n * (n - 1);
  const variance =
    (m * (2 * n + 5) - xTies.v1 - yTies.v1) / 18 +
    (2 * xTies.pairs * yTies.pairs) / m +
    (xTies.v0 * yTies.v0) / (9 * m * (n - 2));
  return { n, tau, p: normalTwoSidedP(conMinusDis / Math.sqrt(variance)), method: "asymptotic" };
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
    throw new StatsInputError(
      `x and y differ in length (${x.length} vs ${y.length}); index ${Math.min(x.length, y.length)} has no partner`,
    );
  }
  for (let i = 0; i < x.length; i++) {
    checkFinite(x[i], `x[${i}]`);
    checkFinite(y[i], `y[${i}]`);
  }
  return x.length;
}

function hasTies(values: number[]): boolean {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.some((v, i) => i > 0 && v === sorted[i - 1]);
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

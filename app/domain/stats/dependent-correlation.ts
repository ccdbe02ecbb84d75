/**
 * Comparing two dependent, overlapping correlations r_jk and r_jh measured on the same n cases
 * (j is shared: the expert mean; k and h are two evaluators), given their intercorrelation r_kh.
 *
 * - Williams' t (Williams 1959, in the form of Steiger 1980, Psychological Bulletin 87(2), p. 246,
 *   eq. 7; cocor's "williams1959"), a test of H0: ρjk = ρjh.
 * - Zou's (2007, Psychological Methods 12(4), p. 409) confidence interval for ρjk − ρjh, built
 *   from the Fisher-z intervals of each correlation (cocor's "zou2007").
 *
 * Undefined results are null with a reason, never NaN.
 */
import { normalQuantileUpper, studentTTwoSidedP } from "./distributions.ts";
import { StatsInputError } from "./errors.ts";

/** Pearson correlations on the same n cases: j is the shared variable (the expert mean), k and h the two methods. */
export interface OverlappingCorrelations {
  rjk: number;
  rjh: number;
  rkh: number;
  n: number;
}
export interface WilliamsResult {
  t: number | null;
  df: number;
  p: number | null;
  reason?: string;
}
export interface DifferenceInterval {
  difference: number;
  level: number;
  ci: [number, number] | null;
  reason?: string;
}

const MIN_N = 4; // df = n − 3 and the Fisher-z variance 1/(n − 3) need n ≥ 4
export const DEFAULT_CI_LEVEL = 0.95;

/** Williams' t (Steiger 1980, eq. 7) for H0: ρjk = ρjh; df = n − 3; p two-sided (Student t). */
export function williamsT(c: OverlappingCorrelations): WilliamsResult {
  checkInput(c);
  const { rjk, rjh, rkh, n } = c;
  const df = Math.max(n - 3, 0);
  const bad = undefinedReason(c);
  if (bad !== null) return { t: null, df, p: null, reason: bad };
  const meanR = (rjk + rjh) / 2;
  const denominator = 2 * ((n - 1) / (n - 3)) * determinant(c) + meanR * meanR * (1 - rkh) ** 3;
  const t = (rjk - rjh) * Math.sqrt(((n - 1) * (1 + rkh)) / denominator);
  return { t, df, p: studentTTwoSidedP(t, df) };
}

/** Zou (2007) confidence interval for ρjk − ρjh (overlapping, dependent), from Fisher-z intervals of each r. */
export function zouOverlappingCi(c: OverlappingCorrelations, level: number = DEFAULT_CI_LEVEL): DifferenceInterval {
  checkInput(c);
  if (typeof level !== "number" || !(level > 0 && level < 1)) {
    throw new StatsInputError(`level must be a number strictly between 0 and 1 (got ${String(level)})`);
  }
  const { rjk, rjh, n } = c;
  const difference = rjk - rjh;
  const bad = undefinedReason(c);
  if (bad !== null) return { difference, level, ci: null, reason: bad };

  const halfWidth = normalQuantileUpper((1 - level) / 2) / Math.sqrt(n - 3);
  const [l1, u1] = fisherInterval(rjk, halfWidth);
  const [l2, u2] = fisherInterval(rjh, halfWidth);
  const corr = correlationOfCorrelations(c);
  // Each limit combines the distances from each r to the relevant limit of its own interval.
  const lowK = rjk - l1;
  const highH = u2 - rjh;
  const highK = u1 - rjk;
  const lowH = rjh - l2;
  const lower = difference - Math.sqrt(lowK * lowK + highH * highH - 2 * corr * lowK * highH);
  const upper = difference + Math.sqrt(highK * highK + lowH * lowH - 2 * corr * highK * lowH);
  return { difference, level, ci: [lower, upper] };
}

// ---------------------------------------------------------------------------------------------

/** |R| of the 3×3 correlation matrix of j, k, h. */
function determinant({ rjk, rjh, rkh }: OverlappingCorrelations): number {
  return 1 - rjk * rjk - rjh * rjh - rkh * rkh + 2 * rjk * rjh * rkh;
}

/** Large-sample correlation between r_jk and r_jh (Zou 2007, p. 409; Dunn & Clark 1969, eq. 8). */
function correlationOfCorrelations({ rjk, rjh, rkh }: OverlappingCorrelations): number {
  const numerator = (rkh - 0.5 * rjk * rjh) * (1 - rjk * rjk - rjh * rjh - rkh * rkh) + rkh ** 3;
  return numerator / ((1 - rjk * rjk) * (1 - rjh * rjh));
}

function fisherInterval(r: number, halfWidth: number): [number, number] {
  const z = Math.atanh(r);
  return [Math.tanh(z - halfWidth), Math.tanh(z + halfWidth)];
}

function checkInput(c: OverlappingCorrelations): void {
  if (c === null || typeof c !== "object")
    throw new StatsInputError("correlations must be an object { rjk, rjh, rkh, n }");
  for (const field of ["rjk", "rjh", "rkh"] as const) {
    const r = c[field];
    if (typeof r !== "number" || !Number.isFinite(r)) {
      throw new StatsInputError(`${field} is not a finite number (got ${typeof r === "number" ? r : typeof r})`);
    }
    if (Math.abs(r) > 1) throw new StatsInputError(`${field} = ${r} is outside [-1, 1]`);
  }
  if (typeof c.n !== "number" || !Number.isInteger(c.n) || c.n < 0) {
    throw new StatsInputError(`n must be a non-negative integer (got ${String(c.n)})`);
  }
}

function undefinedReason(c: OverlappingCorrelations): string | null {
  if (c.n < MIN_N) return `n = ${c.n}: at least ${MIN_N} cases are needed (df = n − 3)`;
  for (const field of ["rjk", "rjh", "rkh"] as const) {
    if (Math.abs(c[field]) === 1) return `${field} = ${c[field]}: a perfect correlation leaves no sampling variance`;
  }
  const det = determinant(c);
  if (!(det > 0)) return `the correlation matrix of j, k, h is singular or invalid (|R| = ${det})`;
  return null;
}

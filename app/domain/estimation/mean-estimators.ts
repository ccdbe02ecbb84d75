/**
 * Estimates of a population mean of a human-scale quantity Y from an automatic judge's value f on
 * every unit and Y on some of them (issue 33). Pure; docs/estimation.md explains when to use which.
 *
 * - classical: Y's labelled units alone (normal interval).
 * - PPI++ (Angelopoulos, Duchi, Zrnic 2023): θ = λ·mean(f unlabelled) + mean(Y − λf labelled), with
 *   the power-tuning λ clipped to [0, 1]; λ = 0 is the classical estimate, so tuning never does
 *   worse in expectation. Conventions (population standard deviations, the tuned λ computed around
 *   the λ = 1 estimate) follow the authors' reference code so fixtures can be compared to 1e-9.
 * - active (Zrnic and Candès 2024) under Poisson sampling: unit i was labelled with known
 *   probability π_i; z_i = g_i + (Y_i − g_i)·ξ_i/π_i with g = λf + μ is unbiased for E[Y] whatever
 *   g is; (λ, μ) are fitted to minimise the sample variance of z, each unit's z with the fit that
 *   leaves that unit out, and se = sd(z)/√N. The λ reported is the fit on all units.
 */
import { normalQuantileUpper } from "../stats/distributions.ts";

/**
 * Labels before an interval here is worth reading: with fewer, the normal intervals of PPI++ and the
 * active estimator come out too narrow (about 90% coverage at 15 labels in bench:allocation).
 */
export const MIN_LABELS_FOR_INTERVAL = 30;

export interface MeanEstimate {
  estimate: number;
  lower: number;
  upper: number;
  halfWidth: number;
  se: number;
  /** Units with a human value that entered the estimate. */
  labelled: number;
  /** Units in the population (labelled and not). */
  units: number;
  /** The judge's weight (PPI++ and active); 0 for classical. */
  lambda: number;
}

const mean = (xs: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return s / xs.length;
};

/** Population (ddof 0) standard deviation. */
const sd0 = (xs: ArrayLike<number>): number => {
  const m = mean(xs);
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += (xs[i] - m) ** 2;
  return Math.sqrt(s / xs.length);
};

function interval(estimate: number, se: number, alpha: number, labelled: number, units: number, lambda: number) {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  const halfWidth = normalQuantileUpper(alpha / 2) * se;
  return { estimate, lower: estimate - halfWidth, upper: estimate + halfWidth, halfWidth, se, labelled, units, lambda };
}

function checkFinite(name: string, xs: ArrayLike<number>): void {
  for (let i = 0; i < xs.length; i++) {
    if (!Number.isFinite(xs[i])) throw new RangeError(`${name}[${i}] is not a finite number (${xs[i]})`);
  }
}

/** The human-only estimate: mean of the labelled Y with a normal interval (null below two labels). */
export function classicalMean(y: readonly number[], alpha = 0.05): MeanEstimate | null {
  checkFinite("y", y);
  if (y.length < 2) return null;
  return interval(mean(y), sd0(y) / Math.sqrt(y.length), alpha, y.length, y.length, 0);
}

export interface PpiInput {
  /** Human values on the labelled units. */
  y: readonly number[];
  /** The judge's values on the same labelled units, in the same order. */
  fLabelled: readonly number[];
  /** The judge's values on the unlabelled units. */
  fUnlabelled: readonly number[];
  alpha?: number;
  /** Fixed λ; omitted: power-tuned. */
  lambda?: number;
}

const ppiPoint = (y: readonly number[], fl: readonly number[], fu: readonly number[], lambda: number) =>
  lambda * mean(fu) + mean(y.map((v, i) => v - lambda * fl[i]));

/** The power-tuning λ for a mean: Cov(Y, f) / ((1 + n/N)·Var(f over all units)), clipped to [0, 1]. */
export function tunedLambda(y: readonly number[], fl: readonly number[], fu: readonly number[]): number {
  const n = y.length;
  const N = fu.length;
  const theta = ppiPoint(y, fl, fu, 1);
  const g = y.map((v) => v - theta);
  const gh = fl.map((v) => v - theta);
  const gm = mean(g);
  const ghm = mean(gh);
  let cov = 0;
  for (let i = 0; i < n; i++) cov += (g[i] - gm) * (gh[i] - ghm);
  cov /= n;
  const all = [...gh, ...fu.map((v) => v - theta)];
  const am = mean(all);
  let v = 0;
  for (const x of all) v += (x - am) ** 2;
  v /= all.length - 1;
  if (!(v > 0)) return 0;
  const lambda = cov / ((1 + n / N) * v);
  return Math.min(1, Math.max(0, lambda));
}

/** PPI++ (power-tuned unless λ is given). Null below two labels or without unlabelled units. */
export function ppiMean(input: PpiInput): MeanEstimate | null {
  const { y, fLabelled: fl, fUnlabelled: fu, alpha = 0.05 } = input;
  checkFinite("y", y);
  checkFinite("fLabelled", fl);
  checkFinite("fUnlabelled", fu);
  if (fl.length !== y.length) throw new RangeError(`fLabelled has ${fl.length} values for ${y.length} labels`);
  if (y.length < 2 || fu.length < 1) return null;
  const lambda = input.lambda ?? tunedLambda(y, fl, fu);
  const imputed = (lambda * sd0(fu)) / Math.sqrt(fu.length);
  const rectifier = sd0(y.map((v, i) => v - lambda * fl[i])) / Math.sqrt(y.length);
  const se = Math.sqrt(imputed ** 2 + rectifier ** 2);
  return interval(ppiPoint(y, fl, fu, lambda), se, alpha, y.length, y.length + fu.length, lambda);
}

export interface ActiveUnit {
  /** The judge's value. */
  f: number;
  /** The probability the unit was (to be) labelled, in (0, 1]. */
  pi: number;
  /** The human value when the unit was labelled, else null. */
  y: number | null;
}

/**
 * The active (inverse-probability-weighted) estimate under Poisson sampling: every unit of the
 * population listed, each labelled or not. Null below two labelled units.
 */
export function activeMean(units: readonly ActiveUnit[], alpha = 0.05): MeanEstimate | null {
  units.forEach((u, i) => {
    if (!Number.isFinite(u.f)) throw new RangeError(`units[${i}].f is not a finite number (${u.f})`);
    if (!(u.pi > 0 && u.pi <= 1)) throw new RangeError(`units[${i}].pi must be in (0, 1], got ${u.pi}`);
    if (u.y !== null && !Number.isFinite(u.y)) throw new RangeError(`units[${i}].y is not a finite number (${u.y})`);
  });
  const labelled = units.filter((u) => u.y !== null).length;
  if (labelled < 2) return null;
  // z = b − λ·a − μ·d with a = f·w, d = w, b = Y·ξ/π and w = ξ/π − 1 (mean zero).
  const w = units.map((u) => (u.y === null ? 0 : 1 / u.pi) - 1);
  const b = units.map((u) => (u.y === null ? 0 : u.y / u.pi));
  const a = units.map((u, i) => u.f * w[i]);
  const N = units.length;
  const am = mean(a);
  const wm = mean(w);
  const bm = mean(b);
  const all = moments(a, w, b, am, wm, bm);
  // Each unit's z uses (λ, μ) fitted without it: fitted with it, a heavily weighted label pulls g
  // towards itself and the interval comes out too narrow at a few dozen labels (bench:allocation).
  const k = N / (N - 1);
  const z = units.map((_, i) => {
    const x = a[i] - am;
    const y = w[i] - wm;
    const v = b[i] - bm;
    const [p, q] = solve2({
      aa: all.aa - k * x * x,
      dd: all.dd - k * y * y,
      ad: all.ad - k * x * y,
      ab: all.ab - k * x * v,
      db: all.db - k * y * v,
    });
    return b[i] - p * a[i] - q * w[i];
  });
  const zm = mean(z);
  let s = 0;
  for (const v of z) s += (v - zm) ** 2;
  const se = Math.sqrt(s / (N - 1) / N);
  return interval(zm, se, alpha, labelled, N, solve2(all)[0]);
}

/** Relative size of det(XᵀX) under which the two regressors count as collinear. */
const COLLINEAR = 1e-10;

/** Centred sums of squares and products of the regressors a, d and the response b. */
interface Moments {
  aa: number;
  dd: number;
  ad: number;
  ab: number;
  db: number;
}

function moments(a: number[], d: number[], b: number[], am: number, dm: number, bm: number): Moments {
  const m: Moments = { aa: 0, dd: 0, ad: 0, ab: 0, db: 0 };
  for (let i = 0; i < a.length; i++) {
    const x = a[i] - am;
    const y = d[i] - dm;
    const z = b[i] - bm;
    m.aa += x * x;
    m.dd += y * y;
    m.ad += x * y;
    m.ab += x * z;
    m.db += y * z;
  }
  return m;
}

/**
 * Coefficients (p, q) minimising Σ(b − p·a − q·d − c)² over p, q and an intercept c, from the
 * centred moments. Removing unit i from data centred on the full means changes each moment by
 * −N/(N − 1)·x_i·y_i, which is how activeMean gets its leave-one-out fits in O(1) each.
 */
function solve2(m: Moments): [number, number] {
  const det = m.aa * m.dd - m.ad * m.ad;
  // a and d (nearly) collinear, as when the judge gives every unit one value: the judge adds nothing
  // beyond d, so fit q alone. An absolute threshold would let rounding noise through as a huge p.
  if (!(det > COLLINEAR * m.aa * m.dd)) return m.dd > 0 ? [0, m.db / m.dd] : [0, 0];
  return [(m.ab * m.dd - m.db * m.ad) / det, (m.db * m.aa - m.ab * m.ad) / det];
}

/**
 * How many more labels would bring the half-width to `target`, assuming the standard error
 * shrinks as 1/√labels (the judge's share of the variance held fixed); 0 when already there.
 */
export function labelsToHalfWidth(current: MeanEstimate, target: number): number {
  if (!(target > 0)) throw new RangeError(`target half-width must be positive, got ${target}`);
  if (current.halfWidth <= target) return 0;
  return Math.max(0, Math.ceil(current.labelled * (current.halfWidth / target) ** 2) - current.labelled);
}

/**
 * The further labels the platform asks for: enough for the projected half-width, and never fewer than it takes to
 * reach the MIN_LABELS_FOR_INTERVAL an interval needs before it is read as final (so "0" means both are met).
 */
export function labelsToReport(current: MeanEstimate, target: number): number {
  return Math.max(labelsToHalfWidth(current, target), MIN_LABELS_FOR_INTERVAL - current.labelled);
}

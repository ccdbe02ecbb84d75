/** Two-sided tail probabilities, wrapping jstat so the rest of the code stays typed. */
import jStat from "jstat";

/**
 * P(|T| >= |t|) for Student's t with `df` degrees of freedom.
 * Uses 2·sf(|t|) = I_{df/(df+t²)}(df/2, 1/2), which avoids the 1 − cdf cancellation in the tail.
 */
export function studentTTwoSidedP(t: number, df: number): number {
  if (!(df > 0)) throw new Error(`studentTTwoSidedP: df must be positive, got ${df}`);
  if (Number.isNaN(t)) throw new Error("studentTTwoSidedP: t is NaN");
  if (!Number.isFinite(t)) return 0;
  const x = df / (df + t * t);
  const p = jStat.ibeta(x, df / 2, 0.5);
  if (p === false) throw new Error(`studentTTwoSidedP: incomplete beta undefined at x=${x}`);
  return clamp01(p);
}

/** P(|Z| >= |z|) for a standard normal Z, i.e. erfc(|z|/√2). */
export function normalTwoSidedP(z: number): number {
  if (Number.isNaN(z)) throw new Error("normalTwoSidedP: z is NaN");
  if (!Number.isFinite(z)) return 0;
  const x = Math.abs(z) / Math.SQRT2;
  // jStat.erfc is 1 − erf(x): fine while erfc is not tiny, but it rounds to 0 below ~1e-16.
  return clamp01(x < ERFC_TAIL_FROM ? jStat.erfc(x) : erfcTail(x));
}

/**
 * z with P(Z > z) = tail for a standard normal Z, 0 < tail < 1/2: bisection on the two-sided
 * tail normalTwoSidedP (monotone), 80 halvings of [0, 40] reach the spacing of doubles.
 */
export function normalQuantileUpper(tail: number): number {
  let lo = 0;
  let hi = 40;
  for (let i = 0; i < 80 && hi - lo > 0; i++) {
    const mid = (lo + hi) / 2;
    if (mid === lo || mid === hi) break;
    if (normalTwoSidedP(mid) > 2 * tail) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

const ERFC_TAIL_FROM = 3;
const ERFC_TAIL_TERMS = 80;

/**
 * erfc(x) for x ≥ 3 with full relative precision: Laplace's continued fraction
 * erfc(x) = e^{−x²}/√π · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + …))))), evaluated bottom-up.
 */
function erfcTail(x: number): number {
  let f = x;
  for (let k = ERFC_TAIL_TERMS; k >= 1; k--) f = x + k / 2 / f;
  return Math.exp(-x * x) / Math.sqrt(Math.PI) / f;
}

function clamp01(p: number): number {
  return p < 0 ? 0 : p > 1 ? 1 : p;
}

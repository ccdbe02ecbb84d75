// Ordinary least-squares slope of y on x.
import { assertFiniteNumber } from "./numeric.ts";

/** Slope of the least-squares line; null with fewer than 2 points or when all x are equal. */
export function leastSquaresSlope(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length) throw new RangeError(`xs has ${xs.length} points, ys has ${ys.length}`);
  xs.forEach((x, i) => assertFiniteNumber(x, `xs[${i}]`));
  ys.forEach((y, i) => assertFiniteNumber(y, `ys[${i}]`));
  const n = xs.length;
  if (n < 2) return null;
  const meanX = xs.reduce((a, b) => a + b, 0) / n;
  const meanY = ys.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    // Centered sums avoid the cancellation of the textbook n·Σxy − Σx·Σy form.
    sxy += (xs[i] - meanX) * (ys[i] - meanY);
    sxx += (xs[i] - meanX) ** 2;
  }
  return sxx === 0 ? null : sxy / sxx;
}

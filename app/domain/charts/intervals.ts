/** Confidence intervals the chart views draw (issue 32): Wilson's score interval for a proportion. */

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * Wilson's score interval for `successes` of `n` (Wilson 1927), which, unlike the Wald interval, stays inside [0, 1]
 * and keeps its coverage near 0 and 1 and for small n. Null when n is 0.
 */
export function wilsonInterval(successes: number, n: number, z = Z95): [number, number] | null {
  if (n <= 0) return null;
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

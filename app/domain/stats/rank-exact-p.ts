/**
 * Exact two-sided p-values of Spearman's ρ and Kendall's τ without ties: the statistic's
 * distribution over all n! equally likely pairings of the two rankings (the null hypothesis of
 * independence). Two-sided as SciPy defines it for permutation_test and kendalltau(method="exact"):
 * p = min(1, 2·min(P(T ≤ t), P(T ≥ t))), a null value equal to the observed one counting in both
 * tails. Both null distributions are symmetric, so this is twice the smaller tail.
 */

/** Which distribution a p-value was read from. */
export type PValueMethod = "exact" | "asymptotic";

/**
 * Largest n for which Spearman's exact p is computed at any ρ. The count below takes
 * O(2ⁿ · n · Σd²) time and 2ⁿ·(Σd² + 1) doubles (n = 12: at most 4096 × 287, 9.4 MB), so it
 * stops where that stays small; above it the t approximation is already close.
 */
export const SPEARMAN_EXACT_MAX_N = 12;
/** SciPy kendalltau's 'auto' rule: exact up to n = 33 without ties. */
export const KENDALL_EXACT_MAX_N = 33;

/**
 * Whether Spearman's p is exact for n pairs without ties whose rankings differ by Σd² = sumSq:
 * n ≤ SPEARMAN_EXACT_MAX_N, or at any n when the rankings are equal, reversed, or one adjacent
 * swap away from either (the tail then holds only n pairings, counted in closed form; the same
 * rule SciPy applies to Kendall's τ with at most one discordant pair).
 */
export function spearmanExactApplies(n: number, sumSq: number): boolean {
  return n <= SPEARMAN_EXACT_MAX_N || spearmanTailStat(n, sumSq) <= 2;
}

/**
 * Exact two-sided p of Spearman's ρ for two rankings without ties of n items whose squared rank
 * differences sum to sumSq (an even integer between 0 and n(n²−1)/3).
 */
export function spearmanExactP(n: number, sumSq: number): number {
  const tail = spearmanTailStat(n, sumSq);
  // Σd² ≤ 2 leaves the identity and its n − 1 adjacent swaps.
  if (tail === 0) return clamp1(2 / factorial(n));
  if (tail <= 2) return clamp1(2 / factorial(n - 1));
  if (n > SPEARMAN_EXACT_MAX_N)
    throw new RangeError(`exact Spearman p is computed up to n = ${SPEARMAN_EXACT_MAX_N} (got ${n})`);
  return clamp1((2 * pairingsWithin(n, tail)) / factorial(n));
}

/** The lower-tail cut: Σd² reflected onto the side below its mean n(n²−1)/6 (the reversal ranking). */
function spearmanTailStat(n: number, sumSq: number): number {
  return Math.min(sumSq, (n * (n * n - 1)) / 3 - sumSq);
}

/**
 * How many permutations π of 0..n−1 have Σ(i − π(i))² ≤ limit. Rows are given values in order
 * and a state is the set of values used so far (a bit mask), with the count of ways for every
 * partial sum ≤ limit; masks grow numerically, so each is complete before it is extended.
 */
function pairingsWithin(n: number, limit: number): number {
  const width = limit + 1;
  const full = (1 << n) - 1;
  const ways = new Float64Array((full + 1) * width);
  const used = new Uint8Array(full + 1); // popcount: the row a mask assigns next
  ways[0] = 1;
  for (let mask = 0; mask < full; mask++) {
    if (mask > 0) used[mask] = used[mask >> 1] + (mask & 1);
    const row = used[mask];
    const from = mask * width;
    for (let v = 0; v < n; v++) {
      const bit = 1 << v;
      if (mask & bit) continue;
      const cost = (row - v) * (row - v);
      if (cost > limit) continue;
      const to = (mask | bit) * width + cost;
      for (let s = 0; s + cost <= limit; s++) ways[to + s] += ways[from + s];
    }
  }
  let count = 0;
  for (let s = 0; s <= limit; s++) count += ways[full * width + s];
  return count;
}

/** Whether Kendall's p is exact (SciPy's 'auto'): no ties and n ≤ 33 or at most one discordant/concordant pair. */
export function kendallExactApplies(n: number, discordant: number): boolean {
  const total = (n * (n - 1)) / 2;
  return n <= KENDALL_EXACT_MAX_N || Math.min(discordant, total - discordant) <= 1;
}

/**
 * Exact two-sided p for Kendall's tau without ties: 2·P(C ≤ min(c, total − c)), C = concordant
 * pairs of a uniformly random permutation (the inversion count distribution), clipped to 1.
 */
export function kendallExactP(n: number, concordant: number): number {
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

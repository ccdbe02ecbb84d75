/**
 * Krippendorff's alpha via the coincidence matrix.
 *
 * alpha = 1 − D_o / D_e with
 *   D_o = (1 / n..) · Σ_c Σ_k o_ck δ²(c, k)                (observed disagreement)
 *   D_e = (1 / (n.. (n.. − 1))) · Σ_c Σ_k n_c n_k δ²(c, k)  (expected disagreement)
 * where o_ck adds 1 / (m_u − 1) for every ordered pair of ratings (c, k) from different raters
 * inside a unit u with m_u ≥ 2 ratings, and n_c = Σ_k o_ck is the number of pairable values c.
 *
 * The matrix is never built. One pass over the units (alpha-units.ts) adds up the observed sum
 * unit by unit and keeps what the expected sum needs: the marginals n_c, or for the interval level
 * only the pooled mean and M2 (Σ_c Σ_k n_c n_k (x_c − x_k)² = 2 n.. Σ (x − x̄)²). Ordinal δ² is a
 * squared difference of mid-ranks, known once the marginals are, so its observed sum is a second
 * pass over the units' kept codes: O(n + V log V) at any number of distinct values V. Ratio's
 * expected sum is O(V · rank) through a low-rank kernel factor (ratio-low-rank.ts) when V is
 * large, else pair by pair over the present values (ratio-kernel.ts).
 */
import { StatsInputError } from "./errors.ts";
import { scanUnits, TALLY_SIDE, type AlphaLevel, type RatingValue, type UnitTable } from "./alpha-units.ts";
import { ratioExpectedSum } from "./ratio-kernel.ts";
import { RatioLowRank } from "./ratio-low-rank.ts";

export type { AlphaLevel, RatingValue } from "./alpha-units.ts";

export const ALPHA_LEVELS: readonly AlphaLevel[] = ["nominal", "ordinal", "interval", "ratio"];

export interface AlphaResult {
  alpha: number | null; // null when undefined
  reason?: string; // why alpha is null
  level: AlphaLevel;
  units: number; // pairable units (>= 2 ratings)
  pairableValues: number; // n.. = total values in pairable units
  observedDisagreement: number | null;
  expectedDisagreement: number | null;
}

export const REASON_NO_PAIRABLE = "no pairable values (no unit has ratings from two or more raters)";
export const REASON_NO_VARIATION = "expected disagreement is 0 (all pairable values are equal)";

/** Alpha for a rating matrix: rows = raters, columns = units; null/undefined = missing. */
export function krippendorffAlpha(data: RatingValue[][], level: AlphaLevel): AlphaResult {
  assertLevel(level);
  const scan = scanUnits(data, checkShape(data), level, false);
  let observedSum = scan.observedSum;
  let expectedSum: number;
  const { nTotal, marginals } = scan;
  const V = scan.values.length;
  if (level === "interval") {
    expectedSum = 2 * nTotal * scan.m2;
  } else if (level === "nominal") {
    let sq = 0;
    for (let c = 0; c < V; c++) sq += marginals[c] * marginals[c];
    expectedSum = nTotal * nTotal - sq;
  } else if (level === "ratio") {
    expectedSum = ratioPointSum(Float64Array.from(scan.values as number[]), marginals, V);
  } else {
    const pos = midRanks(sortedCodes(scan.values as number[]), marginals, V);
    observedSum =
      (scan.table ? ordinalObserved(scan.table, pos) : 0) +
      tallyObserved(scan.pairTally!, pos, Math.min(V, TALLY_SIDE));
    expectedSum = positionExpectedSum(pos, marginals, V, nTotal);
  }
  return alphaFromSums(level, scan.units, nTotal, scan.varied, observedSum, expectedSum);
}

// Below this many distinct positive values the ratio pair loop is cheap enough.
const LOW_RANK_MIN = 2048;

/** Σ_c Σ_k n_c n_k δ²(c, k) at the ratio level for the values `pos` (≥ 0) and counts `marginals`. */
function ratioPointSum(pos: Float64Array, marginals: Float64Array, V: number): number {
  let positive = 0;
  for (let c = 0; c < V; c++) if (marginals[c] !== 0 && pos[c] > 0) positive++;
  if (positive >= LOW_RANK_MIN) {
    const x = new Float64Array(positive);
    const w = new Float64Array(positive);
    let zeroWeight = 0;
    let k = 0;
    for (let c = 0; c < V; c++) {
      if (marginals[c] === 0) continue;
      if (pos[c] > 0) {
        x[k] = pos[c];
        w[k++] = marginals[c];
      } else zeroWeight = marginals[c];
    }
    // Factoring costs about V · rank² / 2: worth it while rank stays under √V.
    const sum = RatioLowRank.build(x, Math.floor(Math.sqrt(positive)))?.expectedSum(w) ?? null;
    if (sum !== null) {
      let positiveWeight = 0;
      for (let i = 0; i < positive; i++) positiveWeight += w[i];
      return sum + 2 * zeroWeight * positiveWeight; // δ²(0, x > 0) = 1, both orders
    }
  }
  return ratioExpectedSum(pos, marginals, V);
}

/** Codes 0..V−1 ordered by their numeric value. */
export function sortedCodes(values: readonly number[]): Int32Array {
  const order = new Int32Array(values.length);
  for (let c = 0; c < order.length; c++) order[c] = c;
  return order.sort((a, b) => values[a] - values[b]);
}

/**
 * Ordinal positions: the mid-rank of each code among the pairable values. Ordinal δ²(c, k) is
 * (Σ_{g=c..k} n_g − (n_c + n_k)/2)², which equals (midrank(k) − midrank(c))².
 */
export function midRanks(order: Int32Array, marginals: Float64Array, V: number): Float64Array {
  const pos = new Float64Array(V);
  let before = 0;
  for (let i = 0; i < V; i++) {
    const c = order[i];
    pos[c] = before + marginals[c] / 2;
    before += marginals[c];
  }
  return pos;
}

/** One unit's Σ over ordered pairs of (pos_a − pos_b)² / (m − 1). */
export function ordinalUnitShare(codes: Int32Array, from: number, to: number, pos: Float64Array): number {
  const m = to - from;
  if (m === 2) {
    const d = pos[codes[from]] - pos[codes[from + 1]];
    return 2 * d * d;
  }
  let sum = 0;
  for (let i = from; i < to; i++) {
    const p = pos[codes[i]];
    for (let j = i + 1; j < to; j++) sum += (p - pos[codes[j]]) ** 2;
  }
  return (2 * sum) / (m - 1);
}

/** Σ over the tallied unordered pairs of both orders' (pos_a − pos_b)² · o_ab. */
function tallyObserved(tally: Float64Array, pos: Float64Array, V: number): number {
  let sum = 0;
  for (let a = 0; a < V; a++) {
    for (let b = a + 1; b < V; b++) {
      const o = tally[a * TALLY_SIDE + b];
      if (o !== 0) sum += 2 * o * (pos[a] - pos[b]) ** 2;
    }
  }
  return sum;
}

function ordinalObserved(table: UnitTable, pos: Float64Array): number {
  const { start, codes, count } = table;
  let sum = 0;
  for (let i = 0; i < count; i++) sum += ordinalUnitShare(codes!, start![i], start![i + 1], pos);
  return sum;
}

/** Σ_c Σ_k n_c n_k (p_c − p_k)² over ordered pairs, as a variance: O(V). */
export function positionExpectedSum(pos: Float64Array, marginals: Float64Array, V: number, nTotal: number): number {
  if (nTotal === 0) return 0;
  // Σ Σ n_c n_k (x_c − x_k)² = 2 n.. Σ n_c (x_c − x̄)² − 2 (Σ n_c (x_c − x̄))²; centring keeps it accurate.
  let mean = 0;
  for (let c = 0; c < V; c++) mean += marginals[c] * pos[c];
  mean /= nTotal;
  let s1 = 0;
  let s2 = 0;
  for (let c = 0; c < V; c++) {
    const n = marginals[c];
    if (n === 0) continue;
    const d = pos[c] - mean;
    s1 += n * d;
    s2 += n * d * d;
  }
  return 2 * nTotal * s2 - 2 * s1 * s1;
}

// ---------------------------------------------------------------------------------------------
// Building blocks shared with the bootstrap (bootstrap.ts). Not part of the public API.

export function assertLevel(level: string): asserts level is AlphaLevel {
  if (!(ALPHA_LEVELS as readonly string[]).includes(level)) {
    throw new StatsInputError(`unknown level "${level}"; expected one of ${ALPHA_LEVELS.join(", ")}`);
  }
}

/** Checks that data is a list of equally long rows and returns the number of units. */
export function checkShape(data: RatingValue[][]): number {
  if (!Array.isArray(data)) throw new StatsInputError("ratings must be an array of rows (one row per rater)");
  let unitCount = 0;
  for (let r = 0; r < data.length; r++) {
    const row: unknown = data[r];
    if (!Array.isArray(row)) throw new StatsInputError(`rater row ${r} is not an array`);
    if (r === 0) unitCount = row.length;
    else if (row.length !== unitCount) {
      throw new StatsInputError(
        `rater row ${r} has ${row.length} values but row 0 has ${unitCount}; every rater row needs one entry per unit (null for missing)`,
      );
    }
  }
  return unitCount;
}

/** Final step: turns the two disagreement sums into an AlphaResult, never producing NaN. */
export function alphaFromSums(
  level: AlphaLevel,
  units: number,
  nTotal: number,
  varied: boolean, // two or more distinct pairable values
  observedSum: number,
  expectedSum: number,
): AlphaResult {
  const base = { level, units, pairableValues: nTotal };
  if (nTotal === 0) {
    return { ...base, alpha: null, reason: REASON_NO_PAIRABLE, observedDisagreement: null, expectedDisagreement: null };
  }
  // With one distinct pairable value every δ² is 0; decide on counts, not on a float being 0.
  if (!varied || !(expectedSum > 0)) {
    return { ...base, alpha: null, reason: REASON_NO_VARIATION, observedDisagreement: 0, expectedDisagreement: 0 };
  }
  const observed = observedSum / nTotal;
  const expected = expectedSum / (nTotal * (nTotal - 1));
  const alpha = 1 - ((nTotal - 1) * observedSum) / expectedSum;
  if (!Number.isFinite(alpha) || !Number.isFinite(observed) || !Number.isFinite(expected)) {
    return {
      ...base,
      alpha: null,
      reason: "numeric overflow (values too large in magnitude)",
      observedDisagreement: null,
      expectedDisagreement: null,
    };
  }
  return { ...base, alpha, observedDisagreement: observed, expectedDisagreement: expected };
}

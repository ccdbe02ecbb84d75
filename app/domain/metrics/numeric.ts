// Shared numeric helpers and input checks for the metric modules.

/**
 * Tolerance for threshold comparisons on consensus values. Consensus values are means of
 * quarter steps, so a difference that is exactly δ on paper can land a few ulps on either
 * side of δ in floating point; 1e-12 is far below any meaningful consensus change.
 */
export const FLOAT_TOLERANCE = 1e-12;

/** Arithmetic mean, or null for an empty list (never NaN). */
export function meanOrNull(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

export function assertFiniteNumber(value: number, what: string): void {
  if (!Number.isFinite(value)) throw new RangeError(`${what} must be a finite number, got ${value}`);
}

export function assertPositiveInteger(value: number, what: string): void {
  if (!Number.isInteger(value) || value < 1) {
    throw new RangeError(`${what} must be a positive integer, got ${value}`);
  }
}

export function assertNonNegativeNumber(value: number, what: string): void {
  if (!Number.isFinite(value) || value < 0) {
    throw new RangeError(`${what} must be a non-negative finite number, got ${value}`);
  }
}

/**
 * Checks a per-turn series indexed 0..T (index 0 = state before any turn) and returns T.
 * Every entry must be finite so that no metric can silently produce NaN.
 */
export function seriesLastTurn(series: readonly number[], what: string): number {
  if (series.length < 1) throw new RangeError(`${what} must have at least the entry for turn 0`);
  series.forEach((v, i) => assertFiniteNumber(v, `${what}[${i}]`));
  return series.length - 1;
}

/** Checks that turns are strictly increasing integers in 1..lastTurn. */
export function assertTurnList(turns: readonly number[], lastTurn: number, what: string): void {
  let previous = 0;
  for (const t of turns) {
    if (!Number.isInteger(t) || t < 1 || t > lastTurn) {
      throw new RangeError(`${what}: turn ${t} is outside 1..${lastTurn}`);
    }
    if (t <= previous) throw new RangeError(`${what} must be strictly increasing (saw ${t} after ${previous})`);
    previous = t;
  }
}

/** First entry of a sorted turn list that is strictly greater than t, or null. */
export function firstTurnAfter(sortedTurns: readonly number[], t: number): number | null {
  for (const m of sortedTurns) if (m > t) return m;
  return null;
}

/**
 * Change from `before` to `after` as a share of the gap `1 − before` that was left to close;
 * the raw change when there is no gap (before = 1). Shared by IE and CG.
 */
export function gapNormalizedChange(before: number, after: number): number {
  return before < 1 ? (after - before) / (1 - before) : after - before;
}

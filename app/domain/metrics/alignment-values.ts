// Per-unit values for human-validation alignment; a unit is a (snippet, topic) pair.
import { assertFiniteNumber, meanOrNull, seriesLastTurn } from "./numeric.ts";
import { toFivePointScale } from "./five-point-scale.ts";

function assertSnippetEnd(tEnd: number, lastTurn: number): void {
  if (!Number.isInteger(tEnd) || tEnd < 1 || tEnd > lastTurn) {
    throw new RangeError(`snippet end turn ${tEnd} is outside 1..${lastTurn}`);
  }
}

/**
 * s[k][0..T] with the starting score s0: turns before the topic's first located turn read s0
 * (stored series were derived with the default s0; `socrates metrics --params` may set another).
 */
export function withStartingScore(scoreSeries: readonly number[], located: readonly boolean[], s0: number): number[] {
  const first = located.indexOf(true);
  const before = first === -1 ? scoreSeries.length : first;
  return scoreSeries.map((score, t) => (t < before ? s0 : score));
}

/** Evaluator value: the carried-forward score s[k][t_end] of the topic at the snippet's last turn. */
export function evaluatorValueAt(scoreSeries: readonly number[], tEnd: number): number {
  assertSnippetEnd(tEnd, seriesLastTurn(scoreSeries, "score series"));
  return scoreSeries[tEnd];
}

/**
 * Per-turn baseline value: 1 + 4 · (mean over party pairs of A[i][j][k] at t_end).
 * `pairSeries[p]` is pair p's agreement series on the topic, indexed 0..T.
 */
export function baselineValueAt(pairSeries: readonly (readonly number[])[], tEnd: number): number {
  if (pairSeries.length === 0) throw new RangeError("at least one party pair is required");
  const atEnd = pairSeries.map((series, p) => {
    assertSnippetEnd(tEnd, seriesLastTurn(series, `pair ${p} series`));
    return series[tEnd];
  });
  return toFivePointScale(meanOrNull(atEnd) as number);
}

/** Mean of annotator scores (expert reference or crowd value); null when nobody scored the unit. */
export function meanOf(scores: readonly number[]): number | null {
  scores.forEach((s, i) => assertFiniteNumber(s, `scores[${i}]`));
  return meanOrNull(scores);
}

/**
 * Where ProMediate's released evaluation code places a mediator turn. It numbers the transcript's
 * lines from 0 and records a mediator line by that number, though its score list starts with the
 * state before any turn: turn m is read at position m − 1 (one turn early), and a mediator turn 1
 * (position 0) is never read. The reference definitions keep this, since it shapes the published
 * figures (docs/metrics.md, "ProMediate reference definitions").
 */
export function referencePositions(mediatorTurns: readonly number[]): { turn: number; position: number }[] {
  return [...mediatorTurns]
    .sort((a, b) => a - b)
    .filter((turn) => turn >= 2)
    .map((turn) => ({ turn, position: turn - 1 }));
}

/** Left-to-right sum, as the reference code adds. */
export const sumOf = (values: readonly number[]): number => values.reduce((s, v) => s + v, 0);

/** Mean of a non-empty list. */
export const meanOf = (values: readonly number[]): number => sumOf(values) / values.length;

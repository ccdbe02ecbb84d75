/**
 * CC as ProMediate's released code computes it: the mean of the last `window` scores of G minus
 * the mean of the first `window`, over G[0..T] (the state before any turn included), undefined
 * when there are fewer than `window` scores. The two windows overlap when T + 1 < 2·window.
 */
import { sumOf } from "./positions.ts";

export interface ReferenceCcResult {
  value: number | null;
  detail: {
    window: number;
    scores: number;
    firstMean: number | null;
    lastMean: number | null;
    /** Scores that sit in both windows. */
    sharedScores: number;
    reason?: string;
  };
}

export function referenceConsensusChange(consensus: readonly number[], window: number): ReferenceCcResult {
  const scores = consensus.length;
  if (scores < window) {
    const reason = `fewer than ${window} scores (G[0..T] has ${scores})`;
    return { value: null, detail: { window, scores, firstMean: null, lastMean: null, sharedScores: 0, reason } };
  }
  const firstMean = sumOf(consensus.slice(0, window)) / window;
  const lastMean = sumOf(consensus.slice(scores - window)) / window;
  const sharedScores = Math.max(0, 2 * window - scores);
  return { value: lastMean - firstMean, detail: { window, scores, firstMean, lastMean, sharedScores } };
}

// Consensus Change (CC), ProMediate conversation-level metric on group consensus G[0..T].
import { assertPositiveInteger, meanOrNull, seriesLastTurn } from "./numeric.ts";

export interface ConsensusChangeOptions {
  /** Upper bound on the window; w = min(maxWindow, ⌊T/2⌋). */
  maxWindow?: number;
}

export interface ConsensusChangeResult {
  cc: number | null;
  reason?: "fewer than 2 turns";
  /** Window actually used; 0 when cc is null. */
  w: number;
  firstMean: number | null;
  lastMean: number | null;
  lastTurn: number;
  maxWindow: number;
}

export const DEFAULT_CC_MAX_WINDOW = 10;

export function consensusChange(
  groupConsensus: readonly number[],
  options: ConsensusChangeOptions = {},
): ConsensusChangeResult {
  const maxWindow = options.maxWindow ?? DEFAULT_CC_MAX_WINDOW;
  assertPositiveInteger(maxWindow, "maxWindow");
  const lastTurn = seriesLastTurn(groupConsensus, "groupConsensus");
  if (lastTurn < 2) {
    return { cc: null, reason: "fewer than 2 turns", w: 0, firstMean: null, lastMean: null, lastTurn, maxWindow };
  }
  const w = Math.min(maxWindow, Math.floor(lastTurn / 2));
  // Windows are over turns, so index 0 (the state before any turn) is never used:
  // first w turns = G[1..w], last w turns = G[T−w+1..T]; they never overlap since 2w ≤ T.
  const firstMean = meanOrNull(groupConsensus.slice(1, w + 1));
  const lastMean = meanOrNull(groupConsensus.slice(lastTurn - w + 1, lastTurn + 1));
  if (firstMean === null || lastMean === null) throw new Error("unreachable: empty CC window");
  return { cc: lastMean - firstMean, w, firstMean, lastMean, lastTurn, maxWindow };
}

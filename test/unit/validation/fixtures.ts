/** Small builders for validation tests: label payloads and item rows. */
import type { ConsensusLabel } from "../../../app/task-types/consensus-snippet/label.ts";
import type { AlignmentItem, ConsensusLabelRow, Pool } from "../../../app/domain/validation/index.ts";

/** A consensus payload from topic → score (positions are irrelevant to the analytics). */
export function consensusPayload(scores: Record<string, number>): ConsensusLabel {
  const topics: ConsensusLabel["topics"] = {};
  for (const [topicId, score] of Object.entries(scores))
    topics[topicId] = { score, carriedForward: false, positions: {} };
  return { kind: "consensus-snippet", topics };
}

export function label(
  itemId: number,
  annotatorId: string,
  pool: Pool,
  scores: Record<string, number>,
  secondsOnTask: number | null = null,
): ConsensusLabelRow {
  return { itemId, annotatorId, pool, payload: consensusPayload(scores), secondsOnTask };
}

export function item(
  itemId: number,
  runId: string,
  snippetPosition: number,
  opts: { last?: boolean; topics?: string[]; gold?: boolean; endTurn?: number } = {},
): AlignmentItem {
  return {
    itemId,
    runId,
    snippetPosition,
    isLastSnippet: opts.last ?? false,
    topicIds: opts.topics ?? ["T1", "T2"],
    isGold: opts.gold ?? false,
    endTurn: opts.endTurn ?? snippetPosition * 3,
  };
}

// Mediator Effectiveness (ME), ProMediate mediator-level metric on per-topic consensus G_k[0..T].
import { assertPositiveInteger, meanOrNull } from "./numeric.ts";
import { leastSquaresSlope } from "./least-squares-slope.ts";
import { topicSeriesLastTurn } from "./topic-series.ts";

export interface TargetedIntervention {
  /** Mediator turn m (1..T). */
  turn: number;
  /** Topics the utterance mentions; empty = all topics. */
  targetTopics: readonly string[];
}

export interface MediatorEffectivenessOptions {
  /** Turns on each side of the intervention used for the slopes. */
  span?: number;
}

export interface TopicSlopeChange {
  topicId: string;
  /** Slope over turns max(1, m−span)..m−1; null when fewer than 2 turns. */
  preSlope: number | null;
  /** Slope over turns m+1..min(T, m+span); null when fewer than 2 turns. */
  postSlope: number | null;
  /** post − pre; null when either side is missing (the pair is skipped). */
  me: number | null;
}

export interface InterventionEffect {
  turn: number;
  topics: TopicSlopeChange[];
  /** Mean ME over the target topics with both slopes; null when none. */
  me: number | null;
}

export interface MediatorEffectivenessResult {
  me: number | null;
  reason?: "no interventions" | "no intervention with slopes on both sides";
  perIntervention: InterventionEffect[];
  interventions: number;
  interventionsUsed: number;
  interventionsSkipped: number;
  /** (intervention, target topic) pairs considered / skipped for lack of 2 points on a side. */
  topicPairs: number;
  topicPairsSkipped: number;
  span: number;
}

export const DEFAULT_ME_SPAN = 5;

function slopeOverTurns(series: readonly number[], fromTurn: number, toTurn: number): number | null {
  const turns: number[] = [];
  for (let t = fromTurn; t <= toTurn; t++) turns.push(t);
  return leastSquaresSlope(
    turns,
    turns.map((t) => series[t]),
  );
}

export function mediatorEffectiveness(
  seriesByTopic: Readonly<Record<string, readonly number[]>>,
  interventions: readonly TargetedIntervention[],
  lastTurn: number,
  options: MediatorEffectivenessOptions = {},
): MediatorEffectivenessResult {
  const span = options.span ?? DEFAULT_ME_SPAN;
  assertPositiveInteger(span, "span");
  const seriesLastTurn = topicSeriesLastTurn(seriesByTopic);
  if (seriesLastTurn !== lastTurn) {
    throw new RangeError(`topic series cover T = ${seriesLastTurn}, but T = ${lastTurn} was given`);
  }
  const allTopics = Object.keys(seriesByTopic);

  const perIntervention = interventions.map(({ turn, targetTopics }): InterventionEffect => {
    if (!Number.isInteger(turn) || turn < 1 || turn > lastTurn) {
      throw new RangeError(`intervention turn ${turn} is outside 1..${lastTurn}`);
    }
    const targets = targetTopics.length > 0 ? targetTopics : allTopics;
    const topics = targets.map((topicId): TopicSlopeChange => {
      const series = seriesByTopic[topicId];
      if (series === undefined) throw new RangeError(`intervention at turn ${turn} targets unknown topic ${topicId}`);
      // Windows are clipped to turns 1..T; index 0 (before any turn) is not a turn.
      const preSlope = slopeOverTurns(series, Math.max(1, turn - span), turn - 1);
      const postSlope = slopeOverTurns(series, turn + 1, Math.min(lastTurn, turn + span));
      const me = preSlope !== null && postSlope !== null ? postSlope - preSlope : null;
      return { topicId, preSlope, postSlope, me };
    });
    const values = topics.flatMap((t) => (t.me === null ? [] : [t.me]));
    return { turn, topics, me: meanOrNull(values) };
  });

  const interventionValues = perIntervention.flatMap((p) => (p.me === null ? [] : [p.me]));
  const topicPairs = perIntervention.reduce((n, p) => n + p.topics.length, 0);
  const topicPairsUsed = perIntervention.reduce((n, p) => n + p.topics.filter((t) => t.me !== null).length, 0);
  const me = meanOrNull(interventionValues);
  const result: MediatorEffectivenessResult = {
    me,
    perIntervention,
    interventions: perIntervention.length,
    interventionsUsed: interventionValues.length,
    interventionsSkipped: perIntervention.length - interventionValues.length,
    topicPairs,
    topicPairsSkipped: topicPairs - topicPairsUsed,
    span,
  };
  if (me === null) {
    result.reason = perIntervention.length === 0 ? "no interventions" : "no intervention with slopes on both sides";
  }
  return result;
}

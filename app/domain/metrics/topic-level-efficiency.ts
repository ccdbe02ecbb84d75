// Topic-Level Efficiency (TLE), ProMediate conversation-level metric on per-topic consensus G_k.
import { assertTurnList, meanOrNull } from "./numeric.ts";
import { topicSeriesLastTurn } from "./topic-series.ts";

export interface TopicEfficiency {
  topicId: string;
  /** n_k: turns that mention the topic. */
  mentions: number;
  /** G_k[T] − G_k[1]; null when the run has no turns. */
  change: number | null;
  /** change / n_k; null when the topic is never mentioned. */
  efficiency: number | null;
}

export interface TopicLevelEfficiencyResult {
  tle: number | null;
  reason?: "no turns" | "no topic mentioned";
  perTopic: TopicEfficiency[];
  topicsUsed: number;
  topicsUnmentioned: number;
}

/**
 * n_k counts every turn that mentions k (spec: turns are party and mediator turns together): the
 * party turns whose attitude on k is not "No Mention", and the mediator turns that name k. A
 * mediator turn naming no topic mentions none (its "all topics" is ME's targeting rule, not a mention).
 */
export function turnsMentioning(
  partyMentions: Readonly<Record<string, readonly number[]>>,
  mediatorTopics: readonly { turn: number; topics: readonly string[] }[],
): Record<string, number[]> {
  const turns: Record<string, Set<number>> = {};
  for (const [topic, list] of Object.entries(partyMentions)) turns[topic] = new Set(list);
  for (const { turn, topics } of mediatorTopics) for (const topic of topics) (turns[topic] ??= new Set()).add(turn);
  return Object.fromEntries(Object.entries(turns).map(([topic, set]) => [topic, [...set].sort((a, b) => a - b)]));
}

export function topicLevelEfficiency(
  seriesByTopic: Readonly<Record<string, readonly number[]>>,
  mentionTurnsByTopic: Readonly<Record<string, readonly number[]>>,
): TopicLevelEfficiencyResult {
  const lastTurn = topicSeriesLastTurn(seriesByTopic);
  for (const topic of Object.keys(mentionTurnsByTopic)) {
    if (!(topic in seriesByTopic)) throw new RangeError(`mentions given for unknown topic ${topic}`);
    assertTurnList(mentionTurnsByTopic[topic], lastTurn, `mentions of topic ${topic}`);
  }

  const perTopic = Object.keys(seriesByTopic).map((topicId): TopicEfficiency => {
    const series = seriesByTopic[topicId];
    const mentions = mentionTurnsByTopic[topicId]?.length ?? 0;
    // Literal reading: the change runs from turn 1, not from the pre-dialogue state G_k[0].
    const change = lastTurn >= 1 ? series[lastTurn] - series[1] : null;
    // A run without turns cannot mention a topic (mention turns are checked to lie in 1..T).
    return { topicId, mentions, change, efficiency: change !== null && mentions > 0 ? change / mentions : null };
  });

  const used = perTopic.flatMap((p) => (p.efficiency === null ? [] : [p.efficiency]));
  const tle = meanOrNull(used);
  const result: TopicLevelEfficiencyResult = {
    tle,
    perTopic,
    topicsUsed: used.length,
    topicsUnmentioned: perTopic.length - used.length,
  };
  if (tle === null) result.reason = lastTurn < 1 ? "no turns" : "no topic mentioned";
  return result;
}

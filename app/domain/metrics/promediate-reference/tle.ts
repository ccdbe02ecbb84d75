/**
 * TLE as ProMediate's released code computes it. Per topic k with n_k mentioning turns (party and
 * mediator turns alike), q = ⌊n_k / 5⌋: the mean of G_k at the last q mentions minus the mean at
 * the first q, divided by n_k; a topic with fewer than 5 mentions (q = 0) or none counts 0. TLE
 * is the mean over every topic. The code asks a model whether each line mentions the topic; the
 * project uses the stored mentions instead (attitude not "No Mention", mediator mentioned_topics).
 */
import { meanOf, sumOf } from "./positions.ts";

export interface ReferenceTopicEfficiency {
  topicId: string;
  mentions: number;
  /** q = ⌊mentions / 5⌋: how many mentions each end's mean takes. */
  fifth: number;
  efficiency: number;
}

export interface ReferenceTleResult {
  value: number | null;
  detail: { perTopic: ReferenceTopicEfficiency[]; topicsCountedZero: number; reason?: string };
}

export function referenceTopicLevelEfficiency(
  seriesByTopic: Readonly<Record<string, readonly number[]>>,
  mentionTurnsByTopic: Readonly<Record<string, readonly number[]>>,
): ReferenceTleResult {
  const perTopic = Object.keys(seriesByTopic).map((topicId): ReferenceTopicEfficiency => {
    const turns = mentionTurnsByTopic[topicId] ?? [];
    const selected = turns.map((t) => seriesByTopic[topicId][t]);
    const mentions = turns.length;
    const fifth = Math.floor(mentions / 5);
    const first = fifth > 0 ? sumOf(selected.slice(0, fifth)) / fifth : 0;
    const last = fifth > 0 ? sumOf(selected.slice(mentions - fifth)) / fifth : 0;
    return { topicId, mentions, fifth, efficiency: mentions > 0 ? (last - first) / mentions : 0 };
  });
  const topicsCountedZero = perTopic.filter((p) => p.fifth === 0).length;
  if (perTopic.length === 0) return { value: null, detail: { perTopic, topicsCountedZero, reason: "no topics" } };
  return { value: meanOf(perTopic.map((p) => p.efficiency)), detail: { perTopic, topicsCountedZero } };
}

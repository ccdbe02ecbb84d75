/**
 * The per-topic, per-turn rows stored for an evaluation (table evaluation_scores), derived
 * from its raw output: the carried-forward 1–5 score for topic-localized evaluations, the
 * topic's mean pairwise agreement in [0, 1] for the per-turn baseline.
 */
import type { Evaluation } from "./bundle.ts";
import { perTurnTrajectory, type RunShape } from "./baseline.ts";
import { topicLocalizedTrajectory } from "./consensus.ts";

export interface EvaluationScoreRow {
  topicId: string;
  turnId: number;
  score: number;
  located: boolean;
  stances: Record<string, string> | null;
}

/**
 * The per-topic rows of a consensus evaluation; an emotion evaluation has none (its scores are per party, read from its
 * output).
 */
export function deriveEvaluationScores(evaluation: Evaluation, run: RunShape): EvaluationScoreRow[] {
  const rows: EvaluationScoreRow[] = [];
  if (evaluation.method === "topic-localized") {
    const trajectory = topicLocalizedTrajectory(evaluation.output, run.topicIds, run.speakers.length);
    for (const topic of trajectory.topics) {
      topic.scores.forEach((score, t) =>
        rows.push({ topicId: topic.topicId, turnId: t, score, located: topic.located[t], stances: topic.stances[t] }),
      );
    }
  } else if (evaluation.method === "per-turn") {
    const trajectory = perTurnTrajectory(evaluation.output, run);
    for (const topicId of run.topicIds) {
      const mentioned = new Set(trajectory.mentions[topicId]);
      trajectory.topicConsensus[topicId].forEach((score, t) =>
        rows.push({ topicId, turnId: t, score, located: mentioned.has(t), stances: null }),
      );
    }
  }
  return rows;
}

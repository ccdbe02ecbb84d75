/**
 * Consensus series rebuilt from stored per-topic rows (table evaluation_scores), for display:
 * C[t] from carried-forward 1–5 scores, G[t] from per-topic pairwise agreement in [0, 1].
 */
import { remapScore } from "./consensus.ts";

export type EvaluationMethod = "topic-localized" | "per-turn";

export interface ScoreRow {
  topicId: string;
  turnId: number;
  score: number;
  located: boolean;
  stances: Record<string, string> | null;
}

export interface TopicSeries {
  topicId: string;
  values: number[];
  located: boolean[];
  stances: (Record<string, string> | null)[];
}

/** Groups rows by topic (in `topicIds` order) into arrays indexed by turn 0..T. */
export function topicSeries(rows: ScoreRow[], topicIds: string[], totalTurns: number): TopicSeries[] {
  const byTopic = new Map(
    topicIds.map((id) => [
      id,
      {
        topicId: id,
        values: new Array<number>(totalTurns + 1).fill(Number.NaN),
        located: new Array<boolean>(totalTurns + 1).fill(false),
        stances: new Array<Record<string, string> | null>(totalTurns + 1).fill(null),
      },
    ]),
  );
  for (const row of rows) {
    const series = byTopic.get(row.topicId);
    if (!series || row.turnId > totalTurns) continue;
    series.values[row.turnId] = row.score;
    series.located[row.turnId] = row.located;
    series.stances[row.turnId] = row.stances;
  }
  return [...byTopic.values()];
}

/** The run-level consensus in [0, 1] at each turn: C[t] or G[t] depending on the method. */
export function consensusSeries(method: EvaluationMethod, topics: TopicSeries[], totalTurns: number): number[] {
  return Array.from({ length: totalTurns + 1 }, (_, t) => {
    const values = topics.map((topic) =>
      method === "topic-localized" ? remapScore(topic.values[t]) : topic.values[t],
    );
    return values.reduce((a, b) => a + b, 0) / values.length;
  });
}

/**
 * The topic-localized consensus trajectory (spec: "Topic-localized consensus").
 * Each topic's 1–5 score is carried forward from its latest located turn; before the first,
 * it is s0. Scores remap to [0, 1] and average over topics into C[t], t = 0..T.
 */
import type { TopicJudgeOutput } from "./bundle.ts";
import type { JudgeProblem } from "./judge-problems.ts";

export const DEFAULT_S0 = 1;

export interface TopicTrajectory {
  topicId: string;
  /** s[k][t] for t = 0..T. */
  scores: number[];
  /** located[t]: the judge scored this topic at turn t. */
  located: boolean[];
  /** The stances the judge recorded at located turns (null elsewhere). */
  stances: (Record<string, string> | null)[];
}

export interface ConsensusTrajectory {
  topics: TopicTrajectory[];
  /** C[t] in [0, 1] for t = 0..T. */
  consensus: number[];
  s0: number;
}

export function remapScore(score: number): number {
  return (score - 1) / 4;
}

/** Problems that make a topic-localized output invalid for a run: never clipped, always reported. */
export function checkTopicJudgeOutput(
  output: Record<string, TopicJudgeOutput>,
  ctx: { topicIds: string[]; partyIds: string[]; totalTurns: number },
): JudgeProblem[] {
  const problems: JudgeProblem[] = [];
  const T = ctx.totalTurns;
  for (const [topicId, judged] of Object.entries(output)) {
    if (!ctx.topicIds.includes(topicId)) {
      problems.push({
        path: [topicId],
        message: `unknown topic id "${topicId}" (the scenario has ${ctx.topicIds.join(", ")})`,
      });
      continue;
    }
    judged.relevant_turns.forEach((turn, i) => {
      if (turn < 1 || turn > T)
        problems.push({ path: [topicId, "relevant_turns", i], message: `turn ${turn} is outside the run (1..${T})` });
    });
    const seen = new Set<number>();
    judged.agreement_score.forEach((entry, i) => {
      const at = [topicId, "agreement_score", i];
      if (entry.turn_id < 1 || entry.turn_id > T)
        problems.push({ path: [...at, "turn_id"], message: `turn ${entry.turn_id} is outside the run (1..${T})` });
      if (seen.has(entry.turn_id))
        problems.push({ path: [...at, "turn_id"], message: `turn ${entry.turn_id} is scored twice` });
      seen.add(entry.turn_id);
      if (!Number.isInteger(entry.score) || entry.score < 1 || entry.score > 5) {
        problems.push({ path: [...at, "score"], message: `score ${entry.score} is not an integer from 1 to 5` });
      }
      for (const party of Object.keys(entry.party_stances)) {
        if (!ctx.partyIds.includes(party))
          problems.push({ path: [...at, "party_stances", party], message: `unknown party id "${party}"` });
      }
    });
  }
  return problems;
}

/**
 * Builds s[k][t] and C[t]. Topics missing from `output` stay at s0 (their failure is recorded
 * as an evaluation error by the caller). Call checkTopicJudgeOutput first: this assumes valid input.
 */
export function topicLocalizedTrajectory(
  output: Record<string, TopicJudgeOutput>,
  topicIds: string[],
  totalTurns: number,
  s0: number = DEFAULT_S0,
): ConsensusTrajectory {
  const topics = topicIds.map((topicId): TopicTrajectory => {
    const entries = [...(output[topicId]?.agreement_score ?? [])].sort((a, b) => a.turn_id - b.turn_id);
    const scores = new Array<number>(totalTurns + 1);
    const located = new Array<boolean>(totalTurns + 1).fill(false);
    const stances = new Array<Record<string, string> | null>(totalTurns + 1).fill(null);
    let current = s0;
    let next = 0;
    for (let t = 0; t <= totalTurns; t++) {
      while (next < entries.length && entries[next].turn_id === t) {
        current = entries[next].score;
        located[t] = true;
        stances[t] = entries[next].party_stances;
        next++;
      }
      scores[t] = current;
    }
    return { topicId, scores, located, stances };
  });
  const consensus = Array.from({ length: totalTurns + 1 }, (_, t) =>
    topics.length === 0 ? 0 : topics.reduce((sum, topic) => sum + remapScore(topic.scores[t]), 0) / topics.length,
  );
  return { topics, consensus, s0 };
}

/**
 * The ProMediate-style per-turn consensus G[t] (spec: "ProMediate per-turn baseline").
 * A[i][j][k] is the mean of five dimension scores for parties i, j on topic k. It starts from
 * the judge's scores on the starting attitudes (t = 0); at a party turn, the speaker's pairs
 * are re-scored and all other pairs carry forward. G_k[t] = mean over pairs; G[t] = mean over
 * pairs and topics.
 */
import { BASELINE_DIMENSIONS, MEDIATOR_ID, NO_MENTION, type PerTurnOutput } from "./bundle.ts";
import type { JudgeProblem } from "./judge-problems.ts";

export interface RunShape {
  topicIds: string[];
  partyIds: string[];
  /** speakers[t - 1] is the speaker of turn t. */
  speakers: string[];
}

export interface PerTurnTrajectory {
  /** Unordered party pairs, each as "A|B" with A < B. */
  pairs: string[];
  /** pairScores[pair][topic][t] = A for t = 0..T. */
  pairScores: Record<string, Record<string, number[]>>;
  /** G_k[t] per topic. */
  topicConsensus: Record<string, number[]>;
  /** G[t]. */
  consensus: number[];
  /**
   * G_k[t] as ProMediate's released code reads it: each pair's score is the judge's own overall score where it gave
   * one, else the mean of the five dimensions (app/domain/metrics/promediate-reference/). Absent: the same as
   * topicConsensus.
   */
  overallTopicConsensus?: Record<string, number[]>;
  /** G[t] on overallTopicConsensus. */
  overallConsensus?: number[];
  /** Party turns at which the speaker mentioned each topic (attitude other than "No Mention"). */
  mentions: Record<string, number[]>;
  /** Mediator turns and the topics each addresses (empty list: none named). */
  mediatorTargets: { turn: number; topics: string[] }[];
}

export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}

function allPairs(partyIds: string[]): string[] {
  const pairs: string[] = [];
  for (let i = 0; i < partyIds.length; i++)
    for (let j = i + 1; j < partyIds.length; j++) pairs.push(pairKey(partyIds[i], partyIds[j]));
  return pairs;
}

function meanDimensions(dimensions: Record<(typeof BASELINE_DIMENSIONS)[number], number>): number {
  return BASELINE_DIMENSIONS.reduce((sum, d) => sum + dimensions[d], 0) / BASELINE_DIMENSIONS.length;
}

type PairEntry = { dimensions: Record<(typeof BASELINE_DIMENSIONS)[number], number>; overall?: number };
const overallOrMean = (entry: PairEntry) => entry.overall ?? meanDimensions(entry.dimensions);

/** Per topic, the mean over pairs at every turn; then the mean over topics. */
function groupSeries(
  pairScores: Record<string, Record<string, number[]>>,
  pairs: string[],
  topicIds: string[],
  T: number,
): { topicConsensus: Record<string, number[]>; consensus: number[] } {
  const topicConsensus: Record<string, number[]> = {};
  for (const topic of topicIds) {
    topicConsensus[topic] = Array.from(
      { length: T + 1 },
      (_, t) => pairs.reduce((s, pair) => s + pairScores[pair][topic][t], 0) / pairs.length,
    );
  }
  const consensus = Array.from(
    { length: T + 1 },
    (_, t) => topicIds.reduce((s, topic) => s + topicConsensus[topic][t], 0) / topicIds.length,
  );
  return { topicConsensus, consensus };
}

export function checkPerTurnOutput(output: PerTurnOutput, run: RunShape): JudgeProblem[] {
  const problems: JudgeProblem[] = [];
  const T = run.speakers.length;
  const knownTopic = (topic: string) => run.topicIds.includes(topic);
  const covered = new Set<string>();
  output.initial.forEach((entry, i) => {
    const [a, b] = entry.pair;
    if (!run.partyIds.includes(a) || !run.partyIds.includes(b) || a === b) {
      problems.push({
        path: ["initial", i, "pair"],
        message: `"${a}" and "${b}" are not two distinct parties of the run`,
      });
      return;
    }
    if (!knownTopic(entry.topic)) {
      problems.push({ path: ["initial", i, "topic"], message: `unknown topic id "${entry.topic}"` });
      return;
    }
    const key = `${pairKey(a, b)}/${entry.topic}`;
    if (covered.has(key))
      problems.push({ path: ["initial", i], message: `pair ${pairKey(a, b)} on ${entry.topic} is scored twice` });
    covered.add(key);
  });
  for (const pair of allPairs(run.partyIds)) {
    for (const topic of run.topicIds) {
      if (!covered.has(`${pair}/${topic}`))
        problems.push({ path: ["initial"], message: `no starting score for pair ${pair} on topic ${topic}` });
    }
  }
  const seenTurns = new Set<number>();
  output.turns.forEach((entry, i) => {
    const at = ["turns", i];
    if (entry.turn_id < 1 || entry.turn_id > T) {
      problems.push({ path: [...at, "turn_id"], message: `turn ${entry.turn_id} is outside the run (1..${T})` });
      return;
    }
    if (seenTurns.has(entry.turn_id))
      problems.push({ path: [...at, "turn_id"], message: `turn ${entry.turn_id} appears twice` });
    seenTurns.add(entry.turn_id);
    const actual = run.speakers[entry.turn_id - 1];
    if (entry.speaker !== actual)
      problems.push({
        path: [...at, "speaker"],
        message: `turn ${entry.turn_id} was spoken by "${actual}", not "${entry.speaker}"`,
      });
    if (actual === MEDIATOR_ID) {
      if (entry.attitudes || entry.agreement)
        problems.push({ path: at, message: "a mediator turn has only mentioned_topics" });
    } else if (entry.mentioned_topics) {
      problems.push({
        path: [...at, "mentioned_topics"],
        message: "a party turn records attitudes, not mentioned_topics",
      });
    }
    for (const topic of Object.keys(entry.attitudes ?? {})) {
      if (!knownTopic(topic))
        problems.push({ path: [...at, "attitudes", topic], message: `unknown topic id "${topic}"` });
    }
    (entry.mentioned_topics ?? []).forEach((topic, j) => {
      if (!knownTopic(topic))
        problems.push({ path: [...at, "mentioned_topics", j], message: `unknown topic id "${topic}"` });
    });
    (entry.agreement ?? []).forEach((score, j) => {
      if (!run.partyIds.includes(score.with) || score.with === actual) {
        problems.push({
          path: [...at, "agreement", j, "with"],
          message: `"${score.with}" is not another party of the run`,
        });
      }
      if (!knownTopic(score.topic))
        problems.push({ path: [...at, "agreement", j, "topic"], message: `unknown topic id "${score.topic}"` });
    });
  });
  return problems;
}

/**
 * Builds A, G_k and G (and the same on the judge's overall scores). Call checkPerTurnOutput first: this assumes valid
 * input.
 */
export function perTurnTrajectory(output: PerTurnOutput, run: RunShape): PerTurnTrajectory {
  const T = run.speakers.length;
  const pairs = allPairs(run.partyIds);
  const emptyScores = () => {
    const scores: Record<string, Record<string, number[]>> = {};
    for (const pair of pairs) {
      scores[pair] = {};
      for (const topic of run.topicIds) scores[pair][topic] = new Array<number>(T + 1);
    }
    return scores;
  };
  const pairScores = emptyScores();
  const overallScores = emptyScores();
  const set = (pair: string, topic: string, t: number, entry: PairEntry) => {
    pairScores[pair][topic][t] = meanDimensions(entry.dimensions);
    overallScores[pair][topic][t] = overallOrMean(entry);
  };
  for (const entry of output.initial) set(pairKey(...entry.pair), entry.topic, 0, entry);

  const byTurn = new Map(output.turns.map((entry) => [entry.turn_id, entry]));
  const mentions: Record<string, number[]> = Object.fromEntries(run.topicIds.map((topic) => [topic, []]));
  const mediatorTargets: { turn: number; topics: string[] }[] = [];
  for (let t = 1; t <= T; t++) {
    for (const pair of pairs)
      for (const topic of run.topicIds) {
        pairScores[pair][topic][t] = pairScores[pair][topic][t - 1];
        overallScores[pair][topic][t] = overallScores[pair][topic][t - 1];
      }
    const speaker = run.speakers[t - 1];
    const entry = byTurn.get(t);
    if (speaker === MEDIATOR_ID) {
      mediatorTargets.push({ turn: t, topics: entry?.mentioned_topics ?? [] });
      continue;
    }
    if (!entry) continue;
    for (const [topic, attitude] of Object.entries(entry.attitudes ?? {})) {
      if (attitude.trim() !== NO_MENTION) mentions[topic].push(t);
    }
    for (const score of entry.agreement ?? []) set(pairKey(speaker, score.with), score.topic, t, score);
  }

  const { topicConsensus, consensus } = groupSeries(pairScores, pairs, run.topicIds, T);
  const overall = groupSeries(overallScores, pairs, run.topicIds, T);
  return {
    pairs,
    pairScores,
    topicConsensus,
    consensus,
    mentions,
    mediatorTargets,
    overallTopicConsensus: overall.topicConsensus,
    overallConsensus: overall.consensus,
  };
}

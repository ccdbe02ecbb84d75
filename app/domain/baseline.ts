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

/** Builds A, G_k and G. Call checkPerTurnOutput first: this assumes valid input. */
export function perTurnTrajectory(output: PerTurnOutput, run: RunShape): PerTurnTrajectory {
  const T = run.speakers.length;
  const pairs = allPairs(run.partyIds);
  const pairScores: Record<string, Record<string, number[]>> = {};
  for (const pair of pairs) {
    pairScores[pair] = {};
    for (const topic of run.topicIds) pairScores[pair][topic] = new Array<number>(T + 1);
  }
  for (const entry of output.initial)
    pairScores[pairKey(...entry.pair)][entry.topic][0] = meanDimensions(entry.dimensions);

  const byTurn = new Map(output.turns.map((entry) => [entry.turn_id, entry]));
  const mentions: Record<string, number[]> = Object.fromEntries(run.topicIds.map((topic) => [topic, []]));
  const mediatorTargets: { turn: number; topics: string[] }[] = [];
  for (let t = 1; t <= T; t++) {
    for (const pair of pairs)
      for (const topic of run.topicIds) pairScores[pair][topic][t] = pairScores[pair][topic][t - 1];
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
    for (const score of entry.agreement ?? [])
      pairScores[pairKey(speaker, score.with)][score.topic][t] = meanDimensions(score.dimensions);
  }

  const topicConsensus: Record<string, number[]> = {};
  for (const topic of run.topicIds) {
    topicConsensus[topic] = Array.from(
      { length: T + 1 },
      (_, t) => pairs.reduce((s, pair) => s + pairScores[pair][topic][t], 0) / pairs.length,
    );
  }
  const consensus = Array.from(
    { length: T + 1 },
    (_, t) => run.topicIds.reduce((s, topic) => s + topicConsensus[topic][t], 0) / run.topicIds.length,
  );
  return { pairs, pairScores, topicConsensus, consensus, mentions, mediatorTargets };
}

/**
 * How a snippet consensus answer's radio buttons are named (`score|PRICE|4`,
 * `position|PRICE|BUYER|A`) and read back from MTurk's `taskAnswers`.
 */
import {
  buttonName,
  chosenButtons,
  itemIdOf,
  SEP,
  type AnswerProblem,
  type AnswerResult,
  type AnswerScenario,
} from "../../domain/crowd/answer-fields.ts";
import { CONSENSUS_SNIPPET, POSITION_NOT_STATED, POSITION_UNCLEAR, type ConsensusLabel } from "./label.ts";

export const scoreField = (topicId: string, score: number): string => buttonName("score", topicId, score);
export const positionField = (topicId: string, partyId: string, position: string): string =>
  buttonName("position", topicId, partyId, position);

/** The positions a crowd worker can give besides an option letter (same values as the web task). */
export const CROWD_SPECIAL_POSITIONS = [POSITION_UNCLEAR, POSITION_NOT_STATED] as const;

/**
 * Consensus answer: per topic one score button, per topic and party one position button. Scores
 * are passed on as numbers whatever their value, so the label check reports a 6 as out of range
 * in the same words as for the web task.
 */
export function consensusPayloadFromAnswers(
  answers: Record<string, unknown>,
  scenario: AnswerScenario,
): AnswerResult<ConsensusLabel> {
  const problems: AnswerProblem[] = [];
  const topicIds = new Set(scenario.topics.map((t) => t.id));
  const partyIds = new Set(scenario.parties.map((p) => p.id));
  const scores = new Map<string, string[]>();
  const positions = new Map<string, string[]>();
  for (const { name, parts } of chosenButtons(answers, "score")) {
    const [topic, value, ...extra] = parts;
    if (extra.length || value === undefined)
      problems.push({ path: name, message: "is not a score field (score|TOPIC|n)" });
    else if (!topicIds.has(topic))
      problems.push({ path: `topics.${topic}`, message: "is not a topic of this scenario" });
    else scores.set(topic, [...(scores.get(topic) ?? []), value]);
  }
  for (const { name, parts } of chosenButtons(answers, "position")) {
    const [topic, party, value, ...extra] = parts;
    if (extra.length || value === undefined)
      problems.push({ path: name, message: "is not a position field (position|TOPIC|PARTY|value)" });
    else if (!topicIds.has(topic))
      problems.push({ path: `topics.${topic}`, message: "is not a topic of this scenario" });
    else if (!partyIds.has(party))
      problems.push({ path: `topics.${topic}.positions.${party}`, message: "is not a party of this scenario" });
    else positions.set(`${topic}${SEP}${party}`, [...(positions.get(`${topic}${SEP}${party}`) ?? []), value]);
  }
  const topics: Record<string, { score: number; carriedForward: boolean; positions: Record<string, string> }> = {};
  for (const { id: topic } of scenario.topics) {
    const chosenScores = scores.get(topic) ?? [];
    if (chosenScores.length !== 1) {
      problems.push({
        path: `topics.${topic}.score`,
        message: chosenScores.length
          ? `more than one score is marked (${chosenScores.join(", ")})`
          : "no score was chosen",
      });
      continue;
    }
    const score = Number(chosenScores[0]);
    if (!Number.isFinite(score)) {
      problems.push({ path: `topics.${topic}.score`, message: `"${chosenScores[0]}" is not a number` });
      continue;
    }
    const byParty: Record<string, string> = {};
    for (const { id: party } of scenario.parties) {
      const chosen = positions.get(`${topic}${SEP}${party}`) ?? [];
      if (chosen.length === 1) byParty[party] = chosen[0];
      else
        problems.push({
          path: `topics.${topic}.positions.${party}`,
          message: chosen.length ? `more than one position is marked (${chosen.join(", ")})` : "no position was chosen",
        });
    }
    topics[topic] = { score, carriedForward: false, positions: byParty };
  }
  if (problems.length) return { ok: false, problems };
  return { ok: true, payload: { kind: CONSENSUS_SNIPPET, topics }, itemId: itemIdOf(answers) };
}

/**
 * How a crowd task's form fields name the answer, and how a submitted MTurk `taskAnswers`
 * value becomes a label payload. The MTurk templates (export) name their radio buttons with the
 * functions here and the results import reads them back with `payloadFromTaskAnswers`, so the
 * two directions cannot drift apart.
 *
 * crowd-form reports each crowd-radio-button under its `name` with an object whose true flag
 * marks the chosen one (`{"on": true}`, or `{"<value>": true}` in older element versions), so a
 * button's name carries both the question and the answer: `score|PRICE|4`,
 * `position|PRICE|BUYER|A`, `choice|B`.
 */
import { POSITION_NOT_STATED, POSITION_UNCLEAR, type LabelPayload } from "../labels.ts";
import { AB_REACTIVENESS, CONSENSUS_SNIPPET } from "../tasks/ids.ts";

const SEP = "|";

/** The hidden field every template carries, so an answer names its item even without the Input columns. */
export const ITEM_ID_FIELD = "item_id";

export const scoreField = (topicId: string, score: number): string => ["score", topicId, String(score)].join(SEP);
export const positionField = (topicId: string, partyId: string, position: string): string => ["position", topicId, partyId, position].join(SEP);
export const choiceField = (side: "A" | "B"): string => ["choice", side].join(SEP);

/** The positions a crowd worker can give besides an option letter (same values as the web task). */
export const CROWD_SPECIAL_POSITIONS = [POSITION_UNCLEAR, POSITION_NOT_STATED] as const;

export interface AnswerProblem {
  /** Where in the answer: `Answer.taskAnswers`, `topics.PRICE.score`, `choice`… */
  path: string;
  message: string;
}

export type AnswerResult = { ok: true; payload: LabelPayload; itemId: string | null } | { ok: false; problems: AnswerProblem[] };

/** What a consensus answer is checked against: the played scenario's topics and parties. */
export interface AnswerScenario {
  topics: readonly { id: string }[];
  parties: readonly { id: string }[];
}

function isChosen(value: unknown): boolean {
  return typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).some((v) => v === true);
}

/** Parses the `Answer.taskAnswers` cell: a JSON array holding one object of field → value. */
export function parseTaskAnswers(raw: string): { ok: true; answers: Record<string, unknown> } | { ok: false; problems: AnswerProblem[] } {
  const where = "Answer.taskAnswers";
  if (raw.trim() === "") return { ok: false, problems: [{ path: where, message: "is empty (the worker's answers are missing)" }] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    return { ok: false, problems: [{ path: where, message: `is not valid JSON (${(err as Error).message})` }] };
  }
  if (!Array.isArray(parsed) || parsed.length !== 1 || typeof parsed[0] !== "object" || parsed[0] === null || Array.isArray(parsed[0])) {
    return { ok: false, problems: [{ path: where, message: "must be a JSON array holding one object of answers, as crowd-form writes it" }] };
  }
  return { ok: true, answers: parsed[0] as Record<string, unknown> };
}

function itemIdOf(answers: Record<string, unknown>): string | null {
  const v = answers[ITEM_ID_FIELD];
  return typeof v === "string" || typeof v === "number" ? String(v) : null;
}

/** The chosen buttons, as their name split into parts, keyed by the question they answer. */
function chosenButtons(answers: Record<string, unknown>, prefix: string): { parts: string[]; name: string }[] {
  return Object.entries(answers)
    .filter(([name, value]) => name.startsWith(prefix + SEP) && isChosen(value))
    .map(([name]) => ({ name, parts: name.split(SEP).slice(1) }));
}

/** A/B answer: exactly one of `choice|A`, `choice|B`. */
export function abPayloadFromAnswers(answers: Record<string, unknown>): AnswerResult {
  const chosen = chosenButtons(answers, "choice");
  if (chosen.length === 0) return { ok: false, problems: [{ path: "choice", message: "no conversation was chosen" }] };
  if (chosen.length > 1) return { ok: false, problems: [{ path: "choice", message: `more than one choice is marked (${chosen.map((c) => c.name).join(", ")})` }] };
  const side = chosen[0].parts[0];
  if (side !== "A" && side !== "B") return { ok: false, problems: [{ path: "choice", message: `"${side}" is not A or B` }] };
  return { ok: true, payload: { kind: AB_REACTIVENESS, choice: side }, itemId: itemIdOf(answers) };
}

/**
 * Consensus answer: per topic one score button, per topic and party one position button. Scores
 * are passed on as numbers whatever their value, so the label check reports a 6 as out of range
 * in the same words as for the web task.
 */
export function consensusPayloadFromAnswers(answers: Record<string, unknown>, scenario: AnswerScenario): AnswerResult {
  const problems: AnswerProblem[] = [];
  const topicIds = new Set(scenario.topics.map((t) => t.id));
  const partyIds = new Set(scenario.parties.map((p) => p.id));
  const scores = new Map<string, string[]>();
  const positions = new Map<string, string[]>();
  for (const { name, parts } of chosenButtons(answers, "score")) {
    const [topic, value, ...extra] = parts;
    if (extra.length || value === undefined) problems.push({ path: name, message: "is not a score field (score|TOPIC|n)" });
    else if (!topicIds.has(topic)) problems.push({ path: `topics.${topic}`, message: "is not a topic of this scenario" });
    else scores.set(topic, [...(scores.get(topic) ?? []), value]);
  }
  for (const { name, parts } of chosenButtons(answers, "position")) {
    const [topic, party, value, ...extra] = parts;
    if (extra.length || value === undefined) problems.push({ path: name, message: "is not a position field (position|TOPIC|PARTY|value)" });
    else if (!topicIds.has(topic)) problems.push({ path: `topics.${topic}`, message: "is not a topic of this scenario" });
    else if (!partyIds.has(party)) problems.push({ path: `topics.${topic}.positions.${party}`, message: "is not a party of this scenario" });
    else positions.set(`${topic}${SEP}${party}`, [...(positions.get(`${topic}${SEP}${party}`) ?? []), value]);
  }
  const topics: Record<string, { score: number; carriedForward: boolean; positions: Record<string, string> }> = {};
  for (const { id: topic } of scenario.topics) {
    const chosenScores = scores.get(topic) ?? [];
    if (chosenScores.length !== 1) {
      problems.push({ path: `topics.${topic}.score`, message: chosenScores.length ? `more than one score is marked (${chosenScores.join(", ")})` : "no score was chosen" });
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
      else problems.push({ path: `topics.${topic}.positions.${party}`, message: chosen.length ? `more than one position is marked (${chosen.join(", ")})` : "no position was chosen" });
    }
    topics[topic] = { score, carriedForward: false, positions: byParty };
  }
  if (problems.length) return { ok: false, problems };
  return { ok: true, payload: { kind: CONSENSUS_SNIPPET, topics }, itemId: itemIdOf(answers) };
}

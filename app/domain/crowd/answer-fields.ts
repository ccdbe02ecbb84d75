/**
 * How a crowd task's form fields name the answer, and how a submitted MTurk `taskAnswers`
 * value becomes a label payload. Each task type names its radio buttons in its folder's
 * answer-fields.ts (with `buttonName` here) and reads them back there (with `chosenButtons`), so the
 * MTurk template and the results import cannot drift apart; this file holds what all types share.
 *
 * crowd-form reports each crowd-radio-button under its `name` with an object whose true flag
 * marks the chosen one (`{"on": true}`, or `{"<value>": true}` in older element versions), so a
 * button's name carries both the question and the answer: `score|PRICE|4`,
 * `position|PRICE|BUYER|A`, `choice|B`.
 */

export const SEP = "|";

/** The hidden field every template carries, so an answer names its item even without the Input columns. */
export const ITEM_ID_FIELD = "item_id";

/** A radio button's name: the question's parts, then the answer (`score|PRICE|4`). */
export const buttonName = (...parts: (string | number)[]): string => parts.map(String).join(SEP);

export interface AnswerProblem {
  /** Where in the answer: `Answer.taskAnswers`, `topics.PRICE.score`, `choice`… */
  path: string;
  message: string;
}

/** A worker's answer as a label payload of the type's own shape, or what is wrong with it. */
export type AnswerResult<Payload = unknown> =
  | { ok: true; payload: Payload; itemId: string | null }
  | { ok: false; problems: AnswerProblem[] };

/** What a consensus answer is checked against: the played scenario's topics and parties. */
export interface AnswerScenario {
  topics: readonly { id: string }[];
  parties: readonly { id: string }[];
}

function isChosen(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).some((v) => v === true)
  );
}

/** Parses the `Answer.taskAnswers` cell: a JSON array holding one object of field → value. */
export function parseTaskAnswers(
  raw: string,
): { ok: true; answers: Record<string, unknown> } | { ok: false; problems: AnswerProblem[] } {
  const where = "Answer.taskAnswers";
  if (raw.trim() === "")
    return { ok: false, problems: [{ path: where, message: "is empty (the worker's answers are missing)" }] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (err) {
    return { ok: false, problems: [{ path: where, message: `is not valid JSON (${(err as Error).message})` }] };
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 1 ||
    typeof parsed[0] !== "object" ||
    parsed[0] === null ||
    Array.isArray(parsed[0])
  ) {
    return {
      ok: false,
      problems: [
        { path: where, message: "must be a JSON array holding one object of answers, as crowd-form writes it" },
      ],
    };
  }
  return { ok: true, answers: parsed[0] as Record<string, unknown> };
}

export function itemIdOf(answers: Record<string, unknown>): string | null {
  const v = answers[ITEM_ID_FIELD];
  return typeof v === "string" || typeof v === "number" ? String(v) : null;
}

/** The chosen buttons, as their name split into parts, keyed by the question they answer. */
export function chosenButtons(answers: Record<string, unknown>, prefix: string): { parts: string[]; name: string }[] {
  return Object.entries(answers)
    .filter(([name, value]) => name.startsWith(prefix + SEP) && isChosen(value))
    .map(([name]) => ({ name, parts: name.split(SEP).slice(1) }));
}

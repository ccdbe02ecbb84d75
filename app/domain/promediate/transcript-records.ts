/**
 * ProMediate's per-line records beside a conversation log, read into the per-turn baseline's output
 * (perTurnOutputSchema). `attitudes.json` and `agreement_scores.json` (written by its
 * consensus_agreement_pipeline.py) each hold the starting state and then one state per line its
 * scripts counted (transcript-log.ts): attitudes as { name: { topic: text } }, agreement as
 * { topic: [pair result, …] }, a pair result holding the five dimensions and
 * overall_consensus_score. A mediator line copies the state before it.
 *
 * Pair slots: the starting list is laid out by itertools.combinations over the case's `names`
 * order, but the pipeline writes a speaker's new scores into the slot its pair has in the `config`
 * order. Where the two orders differ (hmo) a slot then holds another pair's score. This reader takes
 * every updated score from the slot the pipeline wrote it to and files it under the two names it
 * belongs to (docs/promediate-transcripts.md).
 */
import { BASELINE_DIMENSIONS, MEDIATOR_ID, NO_MENTION, type PerTurnOutput } from "../bundle.ts";
import { canonicalJson } from "../bundle-checks.ts";
import type { LogTurn } from "./transcript-log.ts";
import { matchParty, partyCode, type CaseNames } from "./party-names.ts";

export const ATTITUDES_FILE = "attitudes.json";
export const AGREEMENT_FILE = "agreement_scores.json";

export interface RecordProblem {
  file: string;
  path: (string | number)[];
  message: string;
}

export interface RecordsInput extends CaseNames {
  /** Log turns with their speaker already resolved: a party code, or MEDIATOR_ID. */
  turns: (LogTurn & { speakerId: string })[];
  countedLines: number;
  /** The case's topic strings in order, with the scenario topic id each maps to. */
  topics: { key: string; id: string }[];
  attitudes: unknown;
  agreement: unknown;
}

type Dimensions = Record<(typeof BASELINE_DIMENSIONS)[number], number>;
type PairScore = { dimensions: Dimensions; overall?: number };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isUnit = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0 && v <= 1;

/** Pairs of names in itertools.combinations order. */
function combinations(names: readonly string[]): [string, string][] {
  return names.flatMap((a, i) => names.slice(i + 1).map((b): [string, string] => [a, b]));
}

/** The slot the pipeline writes the pair {a, b} to: its index among the `config` order's pairs (by code). */
function configSlots(configNames: readonly string[]): Map<string, number> {
  const slots = new Map<string, number>();
  combinations(configNames.map(partyCode)).forEach(([a, b], i) => {
    slots.set(`${a}|${b}`, i);
    slots.set(`${b}|${a}`, i);
  });
  return slots;
}

function readPair(value: unknown, file: string, path: (string | number)[], problems: RecordProblem[]): PairScore {
  const dimensions = {} as Dimensions;
  if (!isObject(value)) {
    problems.push({ file, path, message: "a pair result is an object with the five dimension scores" });
    return { dimensions };
  }
  const missing = BASELINE_DIMENSIONS.filter((d) => value[d] === undefined);
  if (missing.length === BASELINE_DIMENSIONS.length) {
    problems.push({ file, path, message: "no dimension scores (the judge's reply was not parsed in that run)" });
    return { dimensions };
  }
  for (const d of BASELINE_DIMENSIONS) {
    if (isUnit(value[d])) dimensions[d] = value[d];
    else problems.push({ file, path: [...path, d], message: "a dimension score is a number in [0, 1]" });
  }
  const overall = value.overall_consensus_score;
  if (overall !== undefined && !isUnit(overall))
    problems.push({ file, path: [...path, "overall_consensus_score"], message: "a score is a number in [0, 1]" });
  return isUnit(overall) ? { dimensions, overall } : { dimensions };
}

/** One agreement state: per topic id, the pair list as stored (slot order). */
function readState(
  value: unknown,
  index: number,
  input: RecordsInput,
  pairCount: number,
  out: { problems: RecordProblem[]; warnings: Set<string> },
): Map<string, PairScore[]> {
  const file = AGREEMENT_FILE;
  const state = new Map<string, PairScore[]>();
  if (!isObject(value)) {
    out.problems.push({ file, path: [index], message: "a state is an object keyed by topic" });
    return state;
  }
  const keys = Object.keys(value);
  for (const topic of input.topics) {
    const key =
      keys.find((k) => k === topic.key) ?? keys.find((k) => k.trim().toLowerCase() === topic.key.toLowerCase());
    if (key === undefined) {
      out.problems.push({ file, path: [index], message: `no scores for topic "${topic.key}"` });
      continue;
    }
    if (key !== topic.key) out.warnings.add(`${file}: topic "${key}" read as "${topic.key}"`);
    const list = value[key];
    if (!Array.isArray(list) || list.length !== pairCount) {
      out.problems.push({ file, path: [index, key], message: `a topic holds one result per pair (${pairCount})` });
      continue;
    }
    state.set(
      topic.id,
      list.map((pair, slot) => readPair(pair, file, [index, key, slot], out.problems)),
    );
  }
  for (const key of keys) {
    if (!input.topics.some((t) => t.key.toLowerCase() === key.trim().toLowerCase()))
      out.warnings.add(`${file}: topic "${key}" is not one of the case's topics; ignored`);
  }
  return state;
}

/** The speaker's attitude texts in one attitudes state, by topic id (undefined: none recorded). */
function speakerAttitudes(
  value: unknown,
  index: number,
  speaker: string,
  input: RecordsInput,
  problems: RecordProblem[],
): Map<string, string | undefined> {
  const file = ATTITUDES_FILE;
  const result = new Map<string, string | undefined>();
  if (!isObject(value)) {
    problems.push({ file, path: [index], message: "a state is an object keyed by party name" });
    return result;
  }
  const key = Object.keys(value).find((k) => partyCode(k) === speaker);
  const own = key === undefined ? undefined : value[key];
  if (own !== undefined && !isObject(own)) {
    problems.push({ file, path: [index, key as string], message: "a party's attitudes are an object keyed by topic" });
    return result;
  }
  for (const topic of input.topics) {
    const text = own?.[topic.key];
    if (text !== undefined && typeof text !== "string")
      problems.push({ file, path: [index, key as string, topic.key], message: "an attitude is a text" });
    result.set(topic.id, typeof text === "string" ? text : undefined);
  }
  return result;
}

function checkLengths(input: RecordsInput, problems: RecordProblem[]): boolean {
  const expected = input.countedLines + 1;
  let ok = true;
  for (const [file, value] of [
    [ATTITUDES_FILE, input.attitudes],
    [AGREEMENT_FILE, input.agreement],
  ] as const) {
    if (!Array.isArray(value) || value.length !== expected) {
      problems.push({
        file,
        path: [],
        message: `expected a list of ${expected} states (the start, then one per line of the log ProMediate's scripts count), got ${Array.isArray(value) ? value.length : typeof value}`,
      });
      ok = false;
    }
  }
  return ok;
}

/** The per-turn output the records give, or the problems that stop it (each with its file and JSON path). */
export function readTranscriptRecords(input: RecordsInput): {
  output?: PerTurnOutput;
  problems: RecordProblem[];
  warnings: string[];
} {
  const problems: RecordProblem[] = [];
  const out = { problems, warnings: new Set<string>() };
  if (!checkLengths(input, problems)) return { problems, warnings: [] };
  const pairs = combinations(input.names.map(partyCode));
  const states = (input.agreement as unknown[]).map((v, i) => readState(v, i, input, pairs.length, out));
  if (problems.length > 0) return { problems, warnings: [...out.warnings] };
  const slots = configSlots(input.configNames);
  if (canonicalJson(input.configNames.map(partyCode)) !== canonicalJson(input.names.map(partyCode)))
    out.warnings.add(
      `the case's config order (${input.configNames.join(", ")}) differs from its names order (${input.names.join(", ")}): updated pair scores are read from the slot ProMediate's pipeline wrote them to and filed under their own pair`,
    );
  const initial = input.topics.flatMap((topic) =>
    pairs.map(([a, b], slot) => ({
      pair: [a, b] as [string, string],
      topic: topic.id,
      ...states[0].get(topic.id)![slot],
    })),
  );
  const turns: PerTurnOutput["turns"] = [];
  input.turns.forEach((turn, i) => {
    if (turn.speakerId === MEDIATOR_ID) return;
    const before = turn.counted[0];
    const after = (turn.counted.at(-1) as number) + 1;
    const was = speakerAttitudes((input.attitudes as unknown[])[before], before, turn.speakerId, input, problems);
    const now = speakerAttitudes((input.attitudes as unknown[])[after], after, turn.speakerId, input, problems);
    const attitudes: Record<string, string> = {};
    const agreement: NonNullable<PerTurnOutput["turns"][number]["agreement"]> = [];
    for (const topic of input.topics) {
      const others = pairs.flatMap(([a, b]) => (a === turn.speakerId ? [b] : b === turn.speakerId ? [a] : []));
      const slotOf = (other: string) =>
        slots.get(`${turn.speakerId}|${other}`) ??
        pairs.findIndex((p) => p.includes(other) && p.includes(turn.speakerId));
      const scoresAt = (state: number) => others.map((o) => states[state].get(topic.id)![slotOf(o)]);
      const rescored = canonicalJson(scoresAt(before)) !== canonicalJson(scoresAt(after));
      const text = now.get(topic.id);
      const mentioned = rescored || text !== was.get(topic.id);
      attitudes[topic.id] = mentioned && text ? text : NO_MENTION;
      if (mentioned)
        scoresAt(after).forEach((score, j) => agreement.push({ with: others[j], topic: topic.id, ...score }));
    }
    turns.push({ turn_id: i + 1, speaker: turn.speakerId, attitudes, agreement });
  });
  if (problems.length > 0) return { problems, warnings: [...out.warnings] };
  return { output: { initial, turns }, problems, warnings: [...out.warnings] };
}

/** Names of the case's parties that a record names but the case does not (after the spelling rule). */
export function unknownRecordNames(names: readonly string[], attitudes: unknown): string[] {
  if (!Array.isArray(attitudes) || !isObject(attitudes[0])) return [];
  return Object.keys(attitudes[0]).filter((k) => matchParty(names, k) === null);
}

/**
 * A ProMediate transcript folder as a studio run and, when its records are there, a per-turn
 * evaluation: the run plays `promediate-<case>:general` in free turn order (ProMediate lets any
 * party speak next and its mediator speak twice running), mediated when the mediator speaks, with
 * outcome "budget" (its conversations stop after a fixed number of turns and carry no end signal).
 * Pure: the service reads the files and stores the result through the bundle importer.
 */
import { MEDIATOR_ID, type Evaluation, type PerTurnOutput, type Run, type ScenarioBody } from "../bundle.ts";
import { canonicalJson } from "../bundle-checks.ts";
import { evaluationId } from "../evaluation-ids.ts";
import { formatJsonPath } from "../judge-problems.ts";
import { sha256Hex } from "../sha256.ts";
import { parseConversationLog, type LogTurn } from "./transcript-log.ts";
import { matchParty } from "./party-names.ts";
import { AGREEMENT_FILE, ATTITUDES_FILE, readTranscriptRecords, unknownRecordNames } from "./transcript-records.ts";

export const CONVERSATION_FILE = "conversation.txt";
/** The judge behind ProMediate's records (its pipeline's own scorer), as the evaluation's backbone. */
export const PROMEDIATE_JUDGE = "promediate-judge";
/** ProMediate's party agents, as the run's simulator backbone. */
export const PROMEDIATE_PARTIES = "promediate-parties";

export interface TranscriptProblem {
  file: string;
  /** "line 12", a JSON path ("$[3].Budget"), or "" for the file as a whole. */
  where: string;
  message: string;
}

export interface TranscriptInput {
  caseId: string;
  /** The scenario `promediate-<case>` as stored: its topics (names = the case's topic strings) and parties. */
  scenario: Pick<ScenarioBody, "topics" | "parties">;
  /** The case file's `config` party keys in order, when the case file is at hand (else the names order). */
  configNames?: string[];
  conversation: string;
  /** Parsed attitudes.json / agreement_scores.json; both or neither. */
  attitudes?: unknown;
  agreement?: unknown;
  mediatorName: string;
  mediatorBackbone: string;
  /** The folder's own name, kept in the run's config. */
  folder: string;
}

export interface TranscriptResult {
  run?: Run;
  evaluation?: Evaluation;
  problems: TranscriptProblem[];
  warnings: string[];
}

function resolveSpeakers(
  turns: LogTurn[],
  input: TranscriptInput,
  problems: TranscriptProblem[],
  warnings: string[],
): (LogTurn & { speakerId: string })[] {
  const names = input.scenario.parties.map((p) => p.name);
  return turns.map((turn) => {
    if (turn.speaker === input.mediatorName) return { ...turn, speakerId: MEDIATOR_ID };
    const match = matchParty(names, turn.speaker);
    if (!match) {
      problems.push({
        file: CONVERSATION_FILE,
        where: `line ${turn.line}`,
        message: `"${turn.speaker}" is neither the mediator ("${input.mediatorName}") nor a party (${names.join(", ")})`,
      });
      return { ...turn, speakerId: "" };
    }
    if (!match.exact)
      warnings.push(`${CONVERSATION_FILE}: line ${turn.line}: "${turn.speaker}" read as "${match.name}"`);
    return { ...turn, speakerId: match.code };
  });
}

function buildRun(input: TranscriptInput, turns: (LogTurn & { speakerId: string })[]): Run {
  const mediated = turns.some((t) => t.speakerId === MEDIATOR_ID);
  const config = {
    source: "promediate-transcript",
    case: input.caseId,
    folder: input.folder,
    mediator_name: input.mediatorName,
    sha256: {
      [CONVERSATION_FILE]: sha256Hex(input.conversation),
      ...(input.attitudes !== undefined ? { [ATTITUDES_FILE]: sha256Hex(canonicalJson(input.attitudes)) } : {}),
      ...(input.agreement !== undefined ? { [AGREEMENT_FILE]: sha256Hex(canonicalJson(input.agreement)) } : {}),
    },
  };
  return {
    // The same folder read the same way gets the same id, so a second import finds it stored.
    id: `promediate-${input.caseId}-${sha256Hex(canonicalJson({ config, backbone: input.mediatorBackbone })).slice(0, 16)}`,
    condition_id: `promediate-${input.caseId}:general`,
    mediated,
    mediator_backbone: mediated ? input.mediatorBackbone : null,
    simulator_backbone: PROMEDIATE_PARTIES,
    outcome: "budget",
    party_order: input.scenario.parties.map((p) => p.id),
    turn_order: "free",
    turns: turns.map((t, i) => ({
      turn_id: i + 1,
      speaker: t.speakerId,
      role: t.speakerId === MEDIATOR_ID ? ("mediator" as const) : ("party" as const),
      utterance: t.utterance,
    })),
    config,
    seed: null,
  };
}

function evaluationOf(run: Run, output: PerTurnOutput): Evaluation {
  return {
    id: evaluationId(run.id, "per-turn", PROMEDIATE_JUDGE),
    run_id: run.id,
    method: "per-turn",
    backbone: PROMEDIATE_JUDGE,
    output,
  };
}

function readRecords(
  input: TranscriptInput,
  turns: (LogTurn & { speakerId: string })[],
  countedLines: number,
  result: { problems: TranscriptProblem[]; warnings: string[] },
): PerTurnOutput | undefined {
  const names = input.scenario.parties.map((p) => p.name);
  for (const name of unknownRecordNames(names, input.attitudes))
    result.warnings.push(`${ATTITUDES_FILE}: "${name}" is not a party of the case; ignored`);
  const records = readTranscriptRecords({
    turns,
    countedLines,
    names,
    configNames: input.configNames ?? names,
    topics: input.scenario.topics.map((t) => ({ key: t.name, id: t.id })),
    attitudes: input.attitudes,
    agreement: input.agreement,
  });
  result.warnings.push(...records.warnings);
  // A state is read as one turn's "after" and the next one's "before": report each problem once.
  const seen = new Set<string>();
  for (const p of records.problems) {
    const problem = { file: p.file, where: formatJsonPath(p.path), message: p.message };
    const key = JSON.stringify(problem);
    if (!seen.has(key)) result.problems.push(problem);
    seen.add(key);
  }
  return records.output;
}

/** Reads a transcript folder's contents into a run and its evaluation, or the problems that stop it. */
export function transcriptToRun(input: TranscriptInput): TranscriptResult {
  const log = parseConversationLog(input.conversation);
  const result: TranscriptResult = { problems: [], warnings: [] };
  const at = (line: number) => (line > 0 ? `line ${line}` : "");
  for (const p of log.problems)
    result.problems.push({ file: CONVERSATION_FILE, where: at(p.line), message: p.message });
  for (const w of log.warnings) result.warnings.push(`${CONVERSATION_FILE}: line ${w.line}: ${w.message}`);
  if (!log.hadHeader && log.turns.length > 0)
    result.warnings.push(
      `${CONVERSATION_FILE}: no "📋 Conversation Summary:" line; the whole file was read as the summary`,
    );
  if ((input.attitudes === undefined) !== (input.agreement === undefined)) {
    const [present, absent] =
      input.attitudes === undefined ? [AGREEMENT_FILE, ATTITUDES_FILE] : [ATTITUDES_FILE, AGREEMENT_FILE];
    result.problems.push({ file: present, where: "", message: `${absent} is missing beside it: the two go together` });
  }
  const turns = resolveSpeakers(log.turns, input, result.problems, result.warnings);
  if (result.problems.length > 0) return result;
  const run = buildRun(input, turns);
  if (input.attitudes === undefined) return { ...result, run };
  const output = readRecords(input, turns, log.countedLines, result);
  if (!output || result.problems.length > 0) return result;
  return { ...result, run, evaluation: evaluationOf(run, output) };
}

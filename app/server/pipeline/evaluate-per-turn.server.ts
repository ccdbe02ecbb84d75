/**
 * The ProMediate-style per-turn baseline (spec: "ProMediate per-turn baseline"), producing the
 * per-turn output record of bundle.ts.
 *
 * Calls for a run with P parties, T_p party turns and T_m mediator turns:
 * - starting scores: one agreement call per party pair covering every topic — P(P−1)/2 calls,
 *   on the parties' starting preferences;
 * - one attitude call per turn covering every topic — T_p + T_m calls;
 * - per party turn, one agreement call per other party covering every topic and all five
 *   dimensions — T_p·(P−1) calls.
 *
 * Our reading for mediator turns: the mediator is not a party, so it has no attitude and no
 * pair scores (pairs carry forward across its turn), but ME needs the topics each intervention
 * targets. The attitude prompt is run on the mediator's utterance and the topics it does not
 * leave at "No Mention" become `mentioned_topics`.
 *
 * Attitude calls depend only on the transcript, so all of them run at once; agreement calls
 * need the carried-forward attitudes, which are known once every attitude call is back.
 * A failed starting-score call fails the evaluation (the record needs every pair × topic); a
 * failed later call is a recorded error and the affected pairs carry forward.
 */
import { z } from "zod";
import {
  BASELINE_DIMENSIONS,
  MEDIATOR_ID,
  NO_MENTION,
  type Evaluation,
  type EvaluationError,
  type PerTurnOutput,
} from "../../domain/bundle.ts";
import type { ChatMessage, LlmResult } from "../../domain/llm/types.ts";
import { judgePromptVersion, newEvaluationId } from "./evaluation-identity.server.ts";
import {
  describeTopics,
  transcript,
  turnLine,
  type ContextTurn,
  type EvaluationContext,
} from "../../domain/prompts/transcript.ts";
import { truncateError, type EvaluatorOptions } from "./evaluate-topic.server.ts";
import { renderMessages } from "./prompt-templates.server.ts";

export const ATTITUDE_TEMPLATE = "baseline-attitude";
export const AGREEMENT_TEMPLATE = "baseline-agreement";
export const PER_TURN_METHOD = "per-turn";

type Dimensions = PerTurnOutput["initial"][number]["dimensions"];
type Attitudes = Record<string, string>;

/** A per-turn evaluation that could not be completed (its starting scores are missing). */
export class PerTurnEvaluationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PerTurnEvaluationError";
  }
}

const NO_MENTION_PATTERN = /^\s*no mention\.?\s*$/i;

/** "no mention" in any spelling becomes the exact marker the per-turn record uses. */
export function normalizeAttitude(value: string): string {
  return NO_MENTION_PATTERN.test(value) ? NO_MENTION : value.trim();
}

const phrase = z.string().trim().min(1, `give a short phrase, or "${NO_MENTION}"`);

/** One short phrase (or "No Mention") per topic. */
export function attitudeReplySchema(topicIds: string[]) {
  return z.object({
    attitudes: z.object(Object.fromEntries(topicIds.map((id) => [id, phrase])) as Record<string, typeof phrase>),
  });
}

const unit = z.number().min(0, "a dimension score is from 0 to 1").max(1, "a dimension score is from 0 to 1");
const topicAgreementSchema = z.object({
  reason: z.string().optional(),
  ...(Object.fromEntries(BASELINE_DIMENSIONS.map((d) => [d, unit])) as Record<keyof Dimensions, typeof unit>),
});

/** Five dimension scores per topic; the reason helps the model but is not part of the record. */
export function agreementReplySchema(topicIds: string[]) {
  return z.object({
    topics: z.object(
      Object.fromEntries(topicIds.map((id) => [id, topicAgreementSchema])) as Record<
        string,
        typeof topicAgreementSchema
      >,
    ),
  });
}

type AgreementReply = z.infer<ReturnType<typeof agreementReplySchema>>;

function dimensionsOf(reply: AgreementReply, topic: string): Dimensions {
  const scores = reply.topics[topic];
  return Object.fromEntries(BASELINE_DIMENSIONS.map((d) => [d, scores[d]])) as Dimensions;
}

export function plannedPerTurnCalls(ctx: EvaluationContext): number {
  const p = ctx.parties.length;
  const partyTurns = ctx.turns.filter((t) => t.speaker !== MEDIATOR_ID).length;
  return (p * (p - 1)) / 2 + ctx.turns.length + partyTurns * (p - 1);
}

export function attitudeMessages(ctx: EvaluationContext, turn: ContextTurn): ChatMessage[] {
  return renderMessages(ATTITUDE_TEMPLATE, {
    background: ctx.background,
    topics: describeTopics(ctx.topics),
    history: transcript(ctx.turns.filter((t) => t.turnId < turn.turnId)),
    turn_id: turn.turnId,
    speaker: turn.speaker,
    utterance: turn.utterance,
    topic_ids: ctx.topics.map((t) => t.id).join(", "),
  });
}

function partyLabel(ctx: EvaluationContext, id: string): string {
  const party = ctx.parties.find((p) => p.id === id);
  return party ? `${id} (${party.name})` : id;
}

export function agreementMessages(
  ctx: EvaluationContext,
  first: string,
  second: string,
  attitudes: Record<string, Attitudes>,
  turn: ContextTurn | null,
): ChatMessage[] {
  const positions = ctx.topics
    .map((topic) =>
      [`${topic.id}:`, `- ${first}: ${attitudes[first][topic.id]}`, `- ${second}: ${attitudes[second][topic.id]}`].join(
        "\n",
      ),
    )
    .join("\n\n");
  return renderMessages(AGREEMENT_TEMPLATE, {
    background: ctx.background,
    topics: describeTopics(ctx.topics),
    turn_id: turn?.turnId ?? 0,
    positions,
    latest_turn: turn ? turnLine(turn) : "(none yet: these are the parties' starting positions)",
    first_party: partyLabel(ctx, first),
    second_party: partyLabel(ctx, second),
    topic_ids: ctx.topics.map((t) => t.id).join(", "),
  });
}

type AttitudeReply = z.infer<ReturnType<typeof attitudeReplySchema>>;
type TurnEntry = PerTurnOutput["turns"][number];
type JudgeCall = <T>(template: string, messages: ChatMessage[], schema: z.ZodType<T>) => Promise<LlmResult<T>>;

/** An agreement call made after a party turn, and the turn entry its reply is recorded on. */
interface AgreementJob {
  entry: TurnEntry;
  speaker: string;
  other: string;
  promise: Promise<LlmResult<AgreementReply>>;
}

/** Every pair of parties once, in party order. */
function partyPairs(partyIds: string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let i = 0; i < partyIds.length; i++)
    for (let j = i + 1; j < partyIds.length; j++) pairs.push([partyIds[i], partyIds[j]]);
  return pairs;
}

/** The starting scores of every pair × topic; one failed pair fails the evaluation, as the record needs them all. */
function startingScores(
  pairs: [string, string][],
  results: LlmResult<AgreementReply>[],
  topicIds: string[],
): PerTurnOutput["initial"] {
  const initial: PerTurnOutput["initial"] = [];
  pairs.forEach((pair, i) => {
    const result = results[i];
    if (!result.ok)
      throw new PerTurnEvaluationError(`starting scores for ${pair.join(" and ")}: ${truncateError(result.error)}`);
    for (const topic of topicIds) initial.push({ pair, topic, dimensions: dimensionsOf(result.value, topic) });
  });
  return initial;
}

/**
 * Walks the turns in order, carrying each party's attitudes forward (`attitudes` is updated in place), and
 * starts the agreement calls of each party turn.
 */
function walkTurns(
  ctx: EvaluationContext,
  call: JudgeCall,
  attitudes: Record<string, Attitudes>,
  attitudeResults: LlmResult<AttitudeReply>[],
  errors: EvaluationError[],
): { turns: PerTurnOutput["turns"]; agreementJobs: AgreementJob[] } {
  const topicIds = ctx.topics.map((t) => t.id);
  const partyIds = ctx.partyOrder;
  const turns: PerTurnOutput["turns"] = [];
  const agreementJobs: AgreementJob[] = [];
  ctx.turns.forEach((turn, i) => {
    const result = attitudeResults[i];
    if (!result.ok) {
      const consequence =
        turn.speaker === MEDIATOR_ID
          ? "ME treats this intervention as addressing every topic"
          : "every pair carries forward";
      errors.push({
        message: truncateError(`turn ${turn.turnId}: attitude extraction failed (${consequence}): ${result.error}`),
      });
      return;
    }
    const said = Object.fromEntries(topicIds.map((topic) => [topic, normalizeAttitude(result.value.attitudes[topic])]));
    if (turn.speaker === MEDIATOR_ID) {
      turns.push({
        turn_id: turn.turnId,
        speaker: turn.speaker,
        mentioned_topics: topicIds.filter((t) => said[t] !== NO_MENTION),
      });
      return;
    }
    const current = { ...attitudes[turn.speaker] };
    for (const topic of topicIds) if (said[topic] !== NO_MENTION) current[topic] = said[topic];
    attitudes[turn.speaker] = current;
    const entry: TurnEntry = {
      turn_id: turn.turnId,
      speaker: turn.speaker,
      attitudes: said,
      agreement: [],
    };
    turns.push(entry);
    // The prompt is rendered now, with the attitudes as they stand after this turn.
    for (const other of partyIds.filter((p) => p !== turn.speaker)) {
      agreementJobs.push({
        entry,
        speaker: turn.speaker,
        other,
        promise: call(
          AGREEMENT_TEMPLATE,
          agreementMessages(ctx, turn.speaker, other, attitudes, turn),
          agreementReplySchema(topicIds),
        ),
      });
    }
  });
  return { turns, agreementJobs };
}

/** Records each agreement reply on its turn entry; a failed call is a recorded error and the pair carries forward. */
async function collectAgreements(
  agreementJobs: AgreementJob[],
  topicIds: string[],
  errors: EvaluationError[],
): Promise<void> {
  const agreementResults = await Promise.all(agreementJobs.map((job) => job.promise));
  agreementJobs.forEach((job, i) => {
    const result = agreementResults[i];
    if (!result.ok) {
      errors.push({
        message: truncateError(
          `turn ${job.entry.turn_id}: agreement of ${job.speaker} with ${job.other} failed (the pair carries forward): ${result.error}`,
        ),
      });
      return;
    }
    for (const topic of topicIds)
      job.entry.agreement!.push({ with: job.other, topic, dimensions: dimensionsOf(result.value, topic) });
  });
}

export async function evaluatePerTurn(ctx: EvaluationContext, options: EvaluatorOptions): Promise<Evaluation> {
  const { llm } = options;
  const backbone = llm.modelFor("baseline-judge", options.backbone);
  const topicIds = ctx.topics.map((t) => t.id);
  const call = <T>(template: string, messages: ChatMessage[], schema: z.ZodType<T>): Promise<LlmResult<T>> =>
    llm.call({ role: "baseline-judge", messages, template, schema, subject: ctx.runId, model: options.backbone });
  const errors: EvaluationError[] = [];

  // Starting attitudes are the parties' own stances from the scenario (ProMediate's initial profile).
  const attitudes: Record<string, Attitudes> = Object.fromEntries(
    ctx.parties.map((p) => [p.id, Object.fromEntries(topicIds.map((topic) => [topic, p.preferences[topic]]))]),
  );
  const pairs = partyPairs(ctx.partyOrder);

  const [initialResults, attitudeResults] = await Promise.all([
    Promise.all(
      pairs.map(([a, b]) =>
        call(AGREEMENT_TEMPLATE, agreementMessages(ctx, a, b, attitudes, null), agreementReplySchema(topicIds)),
      ),
    ),
    Promise.all(
      ctx.turns.map((turn) => call(ATTITUDE_TEMPLATE, attitudeMessages(ctx, turn), attitudeReplySchema(topicIds))),
    ),
  ]);

  const initial = startingScores(pairs, initialResults, topicIds);
  const { turns, agreementJobs } = walkTurns(ctx, call, attitudes, attitudeResults, errors);
  await collectAgreements(agreementJobs, topicIds, errors);

  return {
    id: newEvaluationId(ctx.runId, PER_TURN_METHOD, backbone),
    run_id: ctx.runId,
    method: PER_TURN_METHOD,
    backbone,
    prompt_version: judgePromptVersion(PER_TURN_METHOD),
    output: { initial, turns },
    ...(errors.length > 0 ? { errors } : {}),
  };
}

/**
 * The post-hoc emotion judge, for runs simulated without self-reported emotion: one call per
 * party over the finished dialogue, which sees what everyone said aloud plus that party's own
 * private thoughts (never another party's, nor anyone's brief), and scores the party 0–100 after
 * each of its turns. A party whose reply is still invalid after the client's one repair retry
 * becomes a recorded evaluation error naming it; nothing is clipped, the other parties are kept.
 */
import { z } from "zod";
import type { EmotionJudgeOutput, Evaluation, EvaluationError, Party } from "../../domain/bundle.ts";
import { checkEmotionJudgeOutput, partyTurnIds } from "../../domain/emotion/judge-output.ts";
import { emotionScaleText } from "../../domain/emotion/scale.ts";
import { EMOTION_METHOD } from "../../domain/emotion/trajectory.ts";
import { judgePromptVersion, newEvaluationId } from "./evaluation-identity.server.ts";
import { formatJsonPath } from "../../domain/judge-problems.ts";
import type { ChatMessage } from "../../domain/llm/types.ts";
import {
  describeParties,
  describeTopics,
  transcript,
  type EvaluationContext,
} from "../../domain/prompts/transcript.ts";
import type { PartyThought } from "./evaluation-context.server.ts";
import { truncateError, type EvaluatorOptions } from "./evaluate-topic.server.ts";
import { renderMessages } from "./prompt-templates.server.ts";

export const EMOTION_JUDGE_TEMPLATE = "emotion-judge";

/** The shared context plus each party's private thoughts; each call reads one party's only. */
export interface EmotionJudgeContext extends EvaluationContext {
  thoughts: ReadonlyMap<string, readonly PartyThought[]>;
}

function speakersOf(ctx: EvaluationContext): string[] {
  return ctx.turns.map((t) => t.speaker);
}

/**
 * The reply shape, checked against the party's turns: every turn of the party scored once, no
 * other turn, scores whole numbers 0–100. Scores are read as any number so that a score out of
 * range is reported together with the other problems (the repair request lists them all).
 */
export function emotionJudgeReplySchema(ctx: EvaluationContext, partyId: string): z.ZodType<EmotionJudgeOutput> {
  const check = { partyIds: ctx.parties.map((p) => p.id), speakers: speakersOf(ctx) };
  return z
    .object({
      scores: z.array(
        z
          .object({
            turn_id: z.number().int(),
            score: z.number(),
            reason: z.string().trim().min(1, "give a short reason"),
          })
          .strip(),
      ),
    })
    .strip()
    .superRefine((reply, zctx) => {
      for (const problem of checkEmotionJudgeOutput({ [partyId]: reply }, check)) {
        zctx.addIssue({ code: z.ZodIssueCode.custom, path: problem.path.slice(1), message: problem.message });
      }
    });
}

function describeThoughts(thoughts: readonly PartyThought[]): string {
  return thoughts.length === 0
    ? "(no private notes were kept)"
    : thoughts.map((t) => `[${t.turnId}] ${t.thought}`).join("\n");
}

/** The prompt for one party: the public dialogue, that party's thoughts, and its turns to score. */
export function emotionJudgeMessages(ctx: EmotionJudgeContext, party: Party): ChatMessage[] {
  return renderMessages(EMOTION_JUDGE_TEMPLATE, {
    emotion_scale: emotionScaleText(),
    background: ctx.background,
    topics: describeTopics(ctx.topics),
    parties: describeParties(ctx.parties),
    turn_count: ctx.turns.length,
    transcript: transcript(ctx.turns),
    party_id: party.id,
    thoughts: describeThoughts(ctx.thoughts.get(party.id) ?? []),
    party_turns: partyTurnIds(speakersOf(ctx), party.id).join(", "),
  });
}

/** The parties the judge is asked about: those that spoke at least once. */
function spokenParties(ctx: EvaluationContext): Party[] {
  const speakers = new Set(speakersOf(ctx));
  return ctx.parties.filter((p) => speakers.has(p.id));
}

export function plannedEmotionCalls(ctx: EvaluationContext): number {
  return spokenParties(ctx).length;
}

function problemsText(output: EmotionJudgeOutput, partyId: string, ctx: EvaluationContext): string | null {
  const problems = checkEmotionJudgeOutput(
    { [partyId]: output },
    { partyIds: ctx.parties.map((p) => p.id), speakers: speakersOf(ctx) },
  );
  return problems.length === 0 ? null : problems.map((p) => `${formatJsonPath(p.path)}: ${p.message}`).join("; ");
}

/** Runs the judge on every party of the run and returns the evaluation record (not yet stored). */
export async function evaluateEmotion(ctx: EmotionJudgeContext, options: EvaluatorOptions): Promise<Evaluation> {
  const backbone = options.llm.modelFor("emotion-judge", options.backbone);
  const parties = spokenParties(ctx);
  const results = await Promise.all(
    parties.map((party) =>
      options.llm.call({
        role: "emotion-judge",
        messages: emotionJudgeMessages(ctx, party),
        template: EMOTION_JUDGE_TEMPLATE,
        schema: emotionJudgeReplySchema(ctx, party.id),
        subject: ctx.runId,
        model: options.backbone,
      }),
    ),
  );
  // A party that never spoke has no turn to score.
  const output: Record<string, EmotionJudgeOutput> = Object.fromEntries(
    ctx.parties.filter((p) => !parties.includes(p)).map((p) => [p.id, { scores: [] }]),
  );
  const errors: EvaluationError[] = [];
  parties.forEach((party, i) => {
    const result = results[i];
    // The schema already ran the checks; repeating them guards against a client that skipped it.
    const problem = result.ok ? problemsText(result.value, party.id, ctx) : result.error;
    if (problem !== null)
      errors.push({ party_id: party.id, message: truncateError(`judge reply rejected: ${problem}`) });
    else if (result.ok) output[party.id] = result.value;
  });
  return {
    id: newEvaluationId(ctx.runId, EMOTION_METHOD, backbone),
    run_id: ctx.runId,
    method: EMOTION_METHOD,
    backbone,
    prompt_version: judgePromptVersion(EMOTION_METHOD),
    output,
    ...(errors.length > 0 ? { errors } : {}),
  };
}

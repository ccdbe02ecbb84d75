/**
 * The SoCRATES topic-localized evaluator: one judge call per topic over the finished dialogue
 * (spec: "Topic-localized consensus"). A topic whose reply is unusable, after the client's one
 * repair retry, becomes a recorded evaluation error for that topic; the other topics still count.
 */
import { z } from "zod";
import {
  judgeEntrySchema,
  type Evaluation,
  type EvaluationError,
  type Topic,
  type TopicJudgeOutput,
} from "../../domain/bundle.ts";
import { checkTopicJudgeOutput } from "../../domain/consensus.ts";
import { formatJsonPath } from "../../domain/judge-problems.ts";
import type { ChatMessage, Llm } from "../../domain/llm/types.ts";
import { judgePromptVersion, newEvaluationId } from "./evaluation-identity.server.ts";
import { describeParties, describeTopic, transcript, type EvaluationContext } from "../../domain/prompts/transcript.ts";
import { renderMessages } from "./prompt-templates.server.ts";

export const TOPIC_JUDGE_TEMPLATE = "topic-judge";
export const TOPIC_METHOD = "topic-localized";

/** Error messages in stored evaluations stay readable; the full reply is kept in llm_calls. */
const MAX_ERROR_LENGTH = 1500;

export function truncateError(message: string): string {
  const flat = message.trim() || "unknown error";
  return flat.length <= MAX_ERROR_LENGTH ? flat : `${flat.slice(0, MAX_ERROR_LENGTH)}…`;
}

/**
 * The reply shape, checked against this run: turn ids in 1..T, scores 1–5, known party ids.
 * Extra keys the model adds are dropped; nothing it said is clipped or repaired.
 */
export function topicJudgeReplySchema(ctx: EvaluationContext, topicId: string): z.ZodType<TopicJudgeOutput> {
  const partyIds = ctx.parties.map((p) => p.id);
  return z
    .object({ relevant_turns: z.array(z.number().int()), agreement_score: z.array(judgeEntrySchema.strip()) })
    .superRefine((reply, zctx) => {
      const problems = checkTopicJudgeOutput(
        { [topicId]: reply },
        { topicIds: [topicId], partyIds, totalTurns: ctx.turns.length },
      );
      for (const problem of problems)
        zctx.addIssue({ code: z.ZodIssueCode.custom, path: problem.path.slice(1), message: problem.message });
    });
}

export function topicJudgeMessages(ctx: EvaluationContext, topic: Topic): ChatMessage[] {
  return renderMessages(TOPIC_JUDGE_TEMPLATE, {
    background: ctx.background,
    parties: describeParties(ctx.parties),
    topic: describeTopic(topic),
    topic_id: topic.id,
    turn_count: ctx.turns.length,
    transcript: transcript(ctx.turns),
    party_ids: ctx.parties.map((p) => p.id).join(", "),
  });
}

export function plannedTopicCalls(ctx: EvaluationContext): number {
  return ctx.topics.length;
}

export interface EvaluatorOptions {
  llm: Llm;
  /** Overrides the configured judge model; it names the evaluation. */
  backbone?: string;
}

/** Runs the judge on every topic of the run and returns the evaluation record (not yet stored). */
export async function evaluateTopicLocalized(ctx: EvaluationContext, options: EvaluatorOptions): Promise<Evaluation> {
  const backbone = options.llm.modelFor("evaluator", options.backbone);
  const partyIds = ctx.parties.map((p) => p.id);
  const results = await Promise.all(
    ctx.topics.map((topic) =>
      options.llm.call({
        role: "evaluator",
        messages: topicJudgeMessages(ctx, topic),
        template: TOPIC_JUDGE_TEMPLATE,
        schema: topicJudgeReplySchema(ctx, topic.id),
        subject: ctx.runId,
        model: options.backbone,
      }),
    ),
  );
  const output: Record<string, TopicJudgeOutput> = {};
  const errors: EvaluationError[] = [];
  ctx.topics.forEach((topic, i) => {
    const result = results[i];
    if (!result.ok) {
      errors.push({ topic_id: topic.id, message: truncateError(`judge reply rejected: ${result.error}`) });
      return;
    }
    // The schema already ran these checks; repeating them guards against a client that skipped it.
    const problems = checkTopicJudgeOutput(
      { [topic.id]: result.value },
      { topicIds: [topic.id], partyIds, totalTurns: ctx.turns.length },
    );
    if (problems.length > 0) {
      errors.push({
        topic_id: topic.id,
        message: truncateError(
          `judge reply rejected: ${problems.map((p) => `${formatJsonPath(p.path)}: ${p.message}`).join("; ")}`,
        ),
      });
      return;
    }
    output[topic.id] = result.value;
  });
  return {
    id: newEvaluationId(ctx.runId, TOPIC_METHOD, backbone),
    run_id: ctx.runId,
    method: TOPIC_METHOD,
    backbone,
    prompt_version: judgePromptVersion(TOPIC_METHOD),
    output,
    ...(errors.length > 0 ? { errors } : {}),
  };
}

/**
 * The mediator-intelligence judge (spec: ProMediate "MI"): one call per mediator turn, which
 * sees the conversation before the intervention and the intervention itself, and scores it 1–5
 * on four dimensions (−1 = the problem was not present). Judgments go to intervention_judgments.
 */
import { MEDIATOR_ID } from "../../domain/bundle.ts";
import type { Db } from "../db.server.ts";
import { insertJudgment, judgedTurnIds } from "../models/evaluation.server.ts";
import type { ChatMessage } from "../../domain/llm/types.ts";
import {
  describeParties,
  describeTopics,
  transcript,
  type ContextTurn,
  type EvaluationContext,
} from "../../domain/prompts/transcript.ts";
import { truncateError, type EvaluatorOptions } from "./evaluate-topic.server.ts";
import { renderMessages } from "./prompt-templates.server.ts";
import { type MiReply, miReplySchema } from "../../llm-roles/mi-judge/reply.ts";
import { transact } from "../db-transaction.server.ts";

export const MI_TEMPLATE = "mi-judge";

export function miMessages(ctx: EvaluationContext, turn: ContextTurn): ChatMessage[] {
  return renderMessages(MI_TEMPLATE, {
    background: ctx.background,
    topics: describeTopics(ctx.topics),
    parties: describeParties(ctx.parties),
    history: transcript(ctx.turns.filter((t) => t.turnId < turn.turnId)),
    turn_id: turn.turnId,
    utterance: turn.utterance,
  });
}

/** Mediator turns of the run that this backbone has not judged yet. */
export async function unjudgedMediatorTurns(db: Db, ctx: EvaluationContext, backbone: string): Promise<ContextTurn[]> {
  const judged = await judgedTurnIds(db, ctx.runId, backbone);
  return ctx.turns.filter((t) => t.speaker === MEDIATOR_ID && !judged.has(t.turnId));
}

export interface MiJudgment {
  turnId: number;
  reply: MiReply;
}

export interface MiOutcome {
  backbone: string;
  judgments: MiJudgment[];
  failures: { turnId: number; message: string }[];
}

/** Judges the given mediator turns; failures are returned, never thrown. */
export async function judgeInterventions(
  ctx: EvaluationContext,
  turns: ContextTurn[],
  options: EvaluatorOptions,
): Promise<MiOutcome> {
  const backbone = options.llm.modelFor("mi-judge", options.backbone);
  const results = await Promise.all(
    turns.map((turn) => {
      const messages = miMessages(ctx, turn);
      return options.llm.call({
        role: "mi-judge",
        messages,
        template: MI_TEMPLATE,
        schema: miReplySchema,
        subject: ctx.runId,
        model: options.backbone,
      });
    }),
  );
  const outcome: MiOutcome = { backbone, judgments: [], failures: [] };
  turns.forEach((turn, i) => {
    const result = results[i];
    if (result.ok) outcome.judgments.push({ turnId: turn.turnId, reply: result.value });
    else outcome.failures.push({ turnId: turn.turnId, message: truncateError(result.error) });
  });
  return outcome;
}

/** Stores judgments in one transaction; a judgment already stored for (run, turn, backbone) is kept. */
export async function storeJudgments(db: Db, runId: string, outcome: MiOutcome): Promise<number> {
  // Counted inside the work: PostgreSQL may run it again after a conflict.
  return await transact(db, async (db) => {
    let inserted = 0;
    for (const { turnId, reply } of outcome.judgments) {
      const stored = await insertJudgment(db, {
        runId,
        turnId,
        backbone: outcome.backbone,
        perceptionAlignment: reply.perception_alignment,
        emotionalDynamics: reply.emotional_dynamics,
        cognitiveChallenges: reply.cognitive_challenges,
        communicationBreakdowns: reply.communication_breakdowns,
        reason: reply.reason,
      });
      if (stored) inserted++;
    }
    return inserted;
  });
}

/**
 * `Llm.call`: one chat completion whose reply must be JSON matching the caller's schema, with one
 * repair round that shows the model its error; cached in llm_calls, identical concurrent requests
 * sent once.
 */
import { findOkCall } from "../models/llm-call.server.ts";
import { chatStep, sentParams, tokensOf } from "./chat-step.server.ts";
import { planFor, recordStep, reportCached, ZERO_USAGE, type ClientContext, type Plan } from "./context.server.ts";
import type { StructuredOutcome } from "./structured.server.ts";
import { parseReply, repairMessage, type ParsedReply } from "../../domain/llm/reply-parsing.ts";
import type { ChatMessage, LlmRequest, LlmResult } from "../../domain/llm/types.ts";

interface Answer<T> {
  outcome: ParsedReply<T>;
  /** The last reply text, recorded with the call. */
  reply: string | null;
  attempts: number;
  promptTokens: number;
  completionTokens: number;
  structured: StructuredOutcome;
  format: object;
}

/** The first round asks; the second, only when the first reply is unusable, shows the model its error. */
async function askWithRepair<T>(ctx: ClientContext, request: LlmRequest<T>, plan: Plan): Promise<Answer<T>> {
  const endpoint = ctx.endpointOf(request.role);
  const answer: Answer<T> = { outcome: { ok: false, error: "no reply" }, reply: null, attempts: 0, promptTokens: 0, completionTokens: 0, structured: "off", format: {} };
  let messages: ChatMessage[] = request.messages;
  for (let round = 0; round < 2; round++) {
    const step = await chatStep(ctx, endpoint, plan, request.schema, { messages });
    answer.attempts += step.sent.attempts;
    answer.structured = step.outcome;
    answer.format = step.params;
    if (!step.sent.ok) {
      answer.outcome = { ok: false, error: round === 0 ? step.sent.error : `repair request failed: ${step.sent.error}` };
      break;
    }
    const tokens = tokensOf(step.sent.value);
    answer.promptTokens += tokens.promptTokens;
    answer.completionTokens += tokens.completionTokens;
    const text = step.sent.value.choices?.[0]?.message?.content ?? "";
    answer.reply = text;
    const parsed = parseReply(text, request.schema, step.outcome === "sent");
    answer.outcome = parsed.ok ? parsed : { ok: false, error: round === 0 ? parsed.error : `invalid reply after one repair: ${parsed.error}` };
    if (parsed.ok) break;
    messages = [...request.messages, { role: "assistant", content: text }, { role: "user", content: repairMessage(parsed.error) }];
  }
  return answer;
}

/** Asks the endpoint, then records the call (cache and accounting) and reports it. */
async function execute<T>(ctx: ClientContext, request: LlmRequest<T>, plan: Plan): Promise<LlmResult<T>> {
  const started = Date.now();
  const { outcome, reply, attempts, promptTokens, completionTokens, structured, format } = await askWithRepair(ctx, request, plan);
  const usage = recordStep(ctx, request, plan, {
    request: { messages: request.messages, ...sentParams(plan), ...format, structuredOutput: structured },
    response: reply,
    parsed: outcome.ok ? (outcome.value as unknown) : null,
    replyForm: outcome.ok ? outcome.form : null,
    status: outcome.ok ? "ok" : "failed",
    error: outcome.ok ? null : outcome.error,
    promptTokens,
    completionTokens,
    attempts,
  }, started);
  const model = plan.model;
  return outcome.ok ? { ok: true, value: outcome.value, cached: false, usage, model } : { ok: false, error: outcome.error, cached: false, usage, model };
}

/** A stored ok reply for this key that also satisfies this request's schema. */
function fromCache<T>(ctx: ClientContext, request: LlmRequest<T>, plan: Plan): LlmResult<T> | undefined {
  const row = findOkCall(ctx.db, plan.key);
  if (!row || row.response === null) return undefined;
  const parsed = parseReply(row.response, request.schema, row.replyForm === "structured");
  if (!parsed.ok) return undefined; // same prompt, stricter schema: ask again
  const usage = { promptTokens: row.promptTokens, completionTokens: row.completionTokens, costUsd: row.costUsd };
  reportCached(ctx, request, { ...plan, baseUrl: row.baseUrl }, usage);
  return { ok: true, value: parsed.value, cached: true, usage, model: plan.model };
}

/** `Llm.call` for a client context. */
export function chatCaller(ctx: ClientContext): <T>(request: LlmRequest<T>) => Promise<LlmResult<T>> {
  const inFlight = new Map<string, Promise<LlmResult<unknown>>>();

  async function call<T>(request: LlmRequest<T>): Promise<LlmResult<T>> {
    const plan = planFor(ctx.config, request);
    const hit = fromCache(ctx, request, plan);
    if (hit) return hit;

    // An identical request is already on its way: wait for it rather than pay twice.
    const pending = inFlight.get(plan.key);
    if (pending) {
      const first = await pending;
      if (first.ok) return fromCache(ctx, request, plan) ?? call(request);
      const { role, subject } = request;
      ctx.onCall?.({ role, model: plan.model, baseUrl: plan.baseUrl, subject, ok: false, cached: false, error: first.error, attempts: 0, latencyMs: 0, usage: ZERO_USAGE });
      return { ok: false, error: first.error, cached: false, usage: ZERO_USAGE, model: plan.model };
    }

    const running = execute(ctx, request, plan);
    inFlight.set(plan.key, running);
    try {
      return await running;
    } finally {
      inFlight.delete(plan.key);
    }
  }
  return call;
}

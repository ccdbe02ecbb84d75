/**
 * `Llm.call`: one chat completion whose reply must be JSON matching the caller's schema, with one
 * repair round that shows the model its error; cached in llm_calls, identical concurrent requests
 * sent once.
 */
import { jsonWithMessages } from "./cache-key.server.ts";
import { askWithRepair, sentParams } from "./chat-step.server.ts";
import {
  type ClientContext,
  holdRequest,
  type Plan,
  planFor,
  recordStep,
  reportCached,
  storedCost,
  ZERO_USAGE,
} from "./context.server.ts";
import { parseReply } from "../../domain/llm/reply-parsing.ts";
import type { LlmRequest, LlmResult } from "../../domain/llm/types.ts";

/** Asks the endpoint, then records the call (cache and accounting) and reports it. */
async function execute<T>(ctx: ClientContext, request: LlmRequest<T>, plan: Plan): Promise<LlmResult<T>> {
  const started = Date.now();
  const endpoint = ctx.endpointOf(request.role, request.endpoint);
  const { outcome, reply, attempts, promptTokens, completionTokens, structured, format } = await askWithRepair(
    ctx,
    endpoint,
    plan,
    request.schema,
    request.messages,
  );
  const { usage, latencyMs } = await recordStep(
    ctx,
    request,
    plan,
    {
      request: { messages: request.messages, ...sentParams(plan), ...format, structuredOutput: structured },
      // The same object as JSON, its messages as the key's text (not written out a third time).
      requestText: plan.messagesJson
        ? jsonWithMessages(plan.messagesJson, { ...sentParams(plan), ...format, structuredOutput: structured })
        : undefined,
      response: reply,
      parsed: outcome.ok ? (outcome.value as unknown) : null,
      replyForm: outcome.ok ? outcome.form : null,
      status: outcome.ok ? "ok" : "failed",
      error: outcome.ok ? null : outcome.error,
      promptTokens,
      completionTokens,
      attempts,
    },
    started,
  );
  const model = plan.model;
  const requests = attempts;
  return outcome.ok
    ? { ok: true, value: outcome.value, cached: false, usage, model, latencyMs, requests }
    : { ok: false, error: outcome.error, cached: false, usage, model, latencyMs, requests };
}

/** Sends the request unless another process on the database is sending it: then its stored reply is the answer. */
async function executeShared<T>(ctx: ClientContext, request: LlmRequest<T>, plan: Plan): Promise<LlmResult<T>> {
  if (!(await holdRequest(ctx, plan.key))) {
    const hit = await fromCache(ctx, request, plan);
    if (hit) return hit;
  }
  try {
    return await execute(ctx, request, plan);
  } finally {
    await ctx.shared?.releaseRequest(plan.key);
  }
}

/** A stored ok reply for this key that also satisfies this request's schema. */
async function fromCache<T>(ctx: ClientContext, request: LlmRequest<T>, plan: Plan): Promise<LlmResult<T> | undefined> {
  const row = await ctx.replies.find(plan.key);
  if (!row || row.response === null) return undefined;
  const parsed = parseReply(row.response, request.schema, row.replyForm === "structured");
  if (!parsed.ok) return undefined; // same prompt, stricter schema: ask again
  const { usage, latencyMs } = storedCost(row);
  reportCached(ctx, request, { ...plan, baseUrl: row.baseUrl }, usage);
  return { ok: true, value: parsed.value, cached: true, usage, model: plan.model, latencyMs, requests: 0 };
}

/** The cached reply, else the endpoint's (unless another process on the database is sending it). */
async function lookUpOrExecute<T>(ctx: ClientContext, request: LlmRequest<T>, plan: Plan): Promise<LlmResult<T>> {
  return (await fromCache(ctx, request, plan)) ?? (await executeShared(ctx, request, plan));
}

/** `Llm.call` for a client context. */
export function chatCaller(ctx: ClientContext): <T>(request: LlmRequest<T>) => Promise<LlmResult<T>> {
  const inFlight = new Map<string, Promise<LlmResult<unknown>>>();

  /** The answer to a request that waited for an identical one, given how that one ended. */
  async function afterFirst<T>(request: LlmRequest<T>, plan: Plan, first: LlmResult<unknown>): Promise<LlmResult<T>> {
    if (first.ok) return (await fromCache(ctx, request, plan)) ?? call(request);
    const hit = await fromCache(ctx, request, plan);
    if (hit) return hit;
    const { role, subject } = request;
    ctx.onCall?.({
      role,
      model: plan.model,
      baseUrl: plan.baseUrl,
      subject,
      ok: false,
      cached: false,
      error: first.error,
      attempts: 0,
      latencyMs: 0,
      usage: ZERO_USAGE,
    });
    // The failure was the first request's; its latency is recorded there, this one waited.
    return {
      ok: false,
      error: first.error,
      cached: false,
      usage: ZERO_USAGE,
      model: plan.model,
      latencyMs: first.latencyMs,
      requests: 0,
    };
  }

  async function call<T>(request: LlmRequest<T>): Promise<LlmResult<T>> {
    const plan = planFor(ctx.config, request);
    // An identical request is already on its way: wait for it rather than pay twice.
    const pending = inFlight.get(plan.key);
    if (pending !== undefined) return afterFirst(request, plan, await pending);

    // Registered before the cache look-up awaits, so an identical call made meanwhile waits for this one.
    const running = lookUpOrExecute(ctx, request, plan);
    inFlight.set(plan.key, running);
    try {
      return await running;
    } finally {
      inFlight.delete(plan.key);
    }
  }
  return call;
}

/**
 * `Llm.callWithTools`: the chat tool-call loop (OpenAI `tools` / `tool_calls`). Each model turn is
 * one cached, recorded step keyed by the transcript so far, so a rerun replays the turns from the
 * cache (running the tools again, which are the caller's) and pays only for turns not yet made.
 * The final turn offers no tools; its reply is parsed with the schema and repaired once, as in
 * `call`.
 */
import { findOkCall } from "../models/llm-call.server.ts";
import { askWithRepair, sentParams, type StoredToolCall, type WireMessage } from "./chat-step.server.ts";
import {
  addUsage,
  type ClientContext,
  holdRequest,
  type Plan,
  planFor,
  recordStep,
  reportCached,
  type StepCost,
  storedCost,
  ZERO_USAGE,
} from "./context.server.ts";
import { parseReply } from "../../domain/llm/reply-parsing.ts";
import type { LlmResult, ToolRequest } from "../../domain/llm/types.ts";

export const DEFAULT_MAX_STEPS = 6;

/** Each turn carries its step's cost and latency (the stored one when cached), and the HTTP requests it sent. */
type Turn<T> = StepCost & { requests: number } & (
    | { kind: "tools"; content: string | null; toolCalls: StoredToolCall[]; cached: boolean }
    | { kind: "answer"; value: T; cached: boolean }
    | { kind: "failed"; error: string }
  );

/** The assistant message of a tool-call turn, built the same way live and from the cache so keys match on a rerun. */
function assistantTurn(content: string | null, toolCalls: StoredToolCall[]): WireMessage {
  return {
    role: "assistant",
    content,
    tool_calls: toolCalls.map((c) => ({
      id: c.id,
      type: "function" as const,
      function: { name: c.name, arguments: c.arguments },
    })),
  };
}

/** Runs one tool call; every problem becomes the tool's result, for the model to read. */
async function runToolCall<T>(request: ToolRequest<T>, call: StoredToolCall): Promise<string> {
  if (!request.tools.some((t) => t.name === call.name)) return `error: there is no tool named "${call.name}"`;
  let args: unknown;
  try {
    args = call.arguments.trim() === "" ? {} : JSON.parse(call.arguments);
  } catch {
    return "error: the arguments are not valid JSON";
  }
  if (args === null || typeof args !== "object" || Array.isArray(args))
    return "error: the arguments must be a JSON object";
  try {
    return await request.runTool(call.name, args as Record<string, unknown>);
  } catch (err) {
    return `error: ${err instanceof Error ? err.message : String(err)}`;
  }
}

async function cachedTurn<T>(ctx: ClientContext, request: ToolRequest<T>, plan: Plan): Promise<Turn<T> | undefined> {
  const row = await findOkCall(ctx.db, plan.key);
  if (!row) return undefined;
  const cost = { ...storedCost(row), requests: 0 };
  const stored = row.parsed as { content?: string | null; toolCalls?: StoredToolCall[] } | null;
  let turn: Turn<T> | undefined;
  if (row.replyForm === null && Array.isArray(stored?.toolCalls)) {
    turn = { kind: "tools", content: stored.content ?? null, toolCalls: stored.toolCalls, ...cost, cached: true };
  } else if (row.response !== null) {
    const parsed = parseReply(row.response, request.schema, row.replyForm === "structured");
    if (parsed.ok) turn = { kind: "answer", value: parsed.value, ...cost, cached: true };
  }
  if (turn) reportCached(ctx, request, plan, cost.usage);
  return turn;
}

/** Asks for the next turn (tool calls, or the answer repaired once) and records it as one step. */
async function liveTurn<T>(
  ctx: ClientContext,
  request: ToolRequest<T>,
  plan: Plan,
  messages: WireMessage[],
  offerTools: boolean,
): Promise<Turn<T>> {
  const started = Date.now();
  const tools = request.tools.map((t) => ({
    type: "function" as const,
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
  const toolParams = offerTools ? { tools, tool_choice: "auto" as const } : {};
  const answer = await askWithRepair(
    ctx,
    ctx.endpointOf(request.role, request.endpoint),
    plan,
    request.schema,
    messages,
    toolParams,
  );
  const { outcome, reply, toolCalls } = answer;
  const recorded = await recordStep(
    ctx,
    request,
    plan,
    {
      request: { messages, ...toolParams, ...sentParams(plan), ...answer.format, structuredOutput: answer.structured },
      response: toolCalls ? JSON.stringify({ content: reply, toolCalls }) : reply,
      parsed: toolCalls ? { content: reply, toolCalls } : outcome.ok ? (outcome.value as unknown) : null,
      replyForm: !toolCalls && outcome.ok ? outcome.form : null,
      status: toolCalls || outcome.ok ? "ok" : "failed",
      error: toolCalls || outcome.ok ? null : outcome.error,
      promptTokens: answer.promptTokens,
      completionTokens: answer.completionTokens,
      attempts: answer.attempts,
    },
    started,
  );
  const cost = { ...recorded, requests: answer.attempts };
  if (toolCalls) return { kind: "tools", content: reply, toolCalls, ...cost, cached: false };
  return outcome.ok
    ? { kind: "answer", value: outcome.value, ...cost, cached: false }
    : { kind: "failed", error: outcome.error, ...cost };
}

/** The live turn, unless another process on the database is asking it: then its stored turn. */
async function sharedTurn<T>(
  ctx: ClientContext,
  request: ToolRequest<T>,
  plan: Plan,
  messages: WireMessage[],
  offerTools: boolean,
): Promise<Turn<T>> {
  if (!(await holdRequest(ctx, plan.key))) {
    const stored = await cachedTurn(ctx, request, plan);
    if (stored) return stored;
  }
  try {
    return await liveTurn(ctx, request, plan, messages, offerTools);
  } finally {
    await ctx.shared?.releaseRequest(plan.key);
  }
}

/** `Llm.callWithTools` for a client context. */
export function toolCaller(ctx: ClientContext): <T>(request: ToolRequest<T>) => Promise<LlmResult<T>> {
  return async function callWithTools<T>(request: ToolRequest<T>): Promise<LlmResult<T>> {
    const maxSteps = Math.max(1, request.maxSteps ?? DEFAULT_MAX_STEPS);
    const continuation: WireMessage[] = [];
    let usage = ZERO_USAGE;
    let latencyMs = 0;
    let requests = 0;
    let cached = true;
    for (let step = 0; ; step++) {
      const offerTools = step < maxSteps - 1;
      const plan = planFor(ctx.config, request, {
        tools: { offered: offerTools, tools: request.tools },
        continuation: [...continuation],
      });
      const turn =
        (await cachedTurn(ctx, request, plan)) ??
        (await sharedTurn(ctx, request, plan, [...request.messages, ...continuation], offerTools));
      usage = addUsage(usage, turn.usage);
      latencyMs += turn.latencyMs;
      requests += turn.requests;
      if (turn.kind === "failed")
        return {
          ok: false,
          error: `step ${step + 1}: ${turn.error}`,
          cached: false,
          usage,
          model: plan.model,
          latencyMs,
          requests,
        };
      cached &&= turn.cached;
      if (turn.kind === "answer")
        return { ok: true, value: turn.value, cached, usage, model: plan.model, latencyMs, requests };
      continuation.push(assistantTurn(turn.content, turn.toolCalls));
      for (const call of turn.toolCalls) {
        continuation.push({ role: "tool", tool_call_id: call.id, content: await runToolCall(request, call) });
      }
    }
  };
}

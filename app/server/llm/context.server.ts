/**
 * What every call of one LLM client shares (configuration, database, endpoints, retry settings),
 * how a request is planned (the role's configuration applied, its cache key), and how a finished
 * HTTP step is recorded: a row in llm_calls (cache and accounting) and an `onCall` event.
 */
import type { Db } from "../db.server.ts";
import type { NewLlmCallRow, OkReply } from "../models/llm-call.server.ts";
import type { CallBatches } from "./call-batches.server.ts";
import { keyAndMessagesJson, type CacheKeyParts } from "./cache-key.server.ts";
import { costUsd, endpointFor, endpointIdentity, roleConfig, type LlmConfig } from "./config.server.ts";
import type { Endpoint, RetrySettings } from "./endpoints.server.ts";
import type { ReplyMemory } from "./reply-memory.server.ts";
import { type LlmRequest, type LlmRole, type LlmUsage, ROLE_HEADER, TEMPLATE_HEADER } from "../../domain/llm/types.ts";

/** One finished `call` (or one step of a tool loop), for progress output and in-process tallies (see UsageTally). */
export interface LlmCallEvent {
  role: LlmRole;
  model: string;
  baseUrl: string;
  subject?: string;
  ok: boolean;
  cached: boolean;
  error?: string;
  /** HTTP requests made by this call (0 when cached). */
  attempts: number;
  latencyMs: number;
  usage: LlmUsage;
}

export interface ClientContext {
  db: Db;
  config: LlmConfig;
  onCall?: (event: LlmCallEvent) => void;
  /**
   * The role's endpoint, or the named one a request asks for (one client and one limit per endpoint, shared by every
   * role).
   */
  endpointOf: (role: LlmRole, override?: string) => Endpoint;
  retry: RetrySettings;
  /** Ok replies already read from llm_calls, by cache key (the chat cache's fast path). */
  replies: ReplyMemory;
  /** Where finished steps are stored: one transaction per turn of the event loop. */
  store: CallBatches;
  /** Requests in flight shared with other processes on the database (benchmark workers), when there are any. */
  shared?: SharedRequests;
}

/** Leases on requests in flight, by cache key, held among processes (app/server/benchmark/work-leases.server.ts). */
export interface SharedRequests {
  /** True when this process now holds the request (nobody else is sending it). */
  claimRequest(key: string): Promise<boolean>;
  releaseRequest(key: string): Promise<void>;
  pause(): Promise<void>;
}

/**
 * Waits while another process has the identical request in flight; true when this process now
 * holds it (send it, then release it), false when that process's reply was stored meanwhile.
 * Called once the caller's cache look-up found no reply, so it claims before looking again.
 */
export async function holdRequest(ctx: ClientContext, key: string): Promise<boolean> {
  const { shared } = ctx;
  if (!shared) return true;
  for (;;) {
    if (await shared.claimRequest(key)) {
      // Stored between the caller's look-up and the claim: nothing to send.
      if (!(await ctx.replies.find(key))) return true;
      await shared.releaseRequest(key);
      return false;
    }
    await shared.pause();
    if (await ctx.replies.find(key)) return false;
  }
}

export const ZERO_USAGE: LlmUsage = { promptTokens: 0, completionTokens: 0, costUsd: 0 };

export function addUsage(a: LlmUsage, b: LlmUsage): LlmUsage {
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    costUsd: a.costUsd + b.costUsd,
  };
}

/** A request with the role's configuration applied: what is sent, and the cache key it is stored under. */
export interface Plan extends CacheKeyParts {
  key: string;
  /** Whether structured output is asked for (the request's `structured`, else the role's `structuredOutput`). */
  structured: boolean;
  /** The request's role and template, sent as headers (not in the cache key: the messages decide the reply). */
  headers: Record<string, string>;
  /** `messages` as the JSON text the key hashed (when all are plain strings), reused by the request and its row. */
  messagesJson?: string;
}

/** The headers naming a request's role and template. */
export function requestHeaders(role: LlmRole, template?: string): Record<string, string> {
  return { [ROLE_HEADER]: role, ...(template ? { [TEMPLATE_HEADER]: template } : {}) };
}

export function planFor(config: LlmConfig, request: LlmRequest<unknown>, extra: Partial<CacheKeyParts> = {}): Plan {
  const role = roleConfig(config, request.role);
  const structured = request.structured ?? role.structuredOutput;
  const { name, endpoint } = endpointFor(config, request.role, request.endpoint);
  const parts: CacheKeyParts = {
    // A pool's identity, never the replica that will answer: the key is the same whichever does.
    baseUrl: endpointIdentity(name, endpoint),
    model: request.model ?? role.model,
    messages: request.messages,
    temperature: request.temperature ?? role.temperature,
    maxTokens: request.maxTokens ?? role.maxTokens,
    seed: request.seed ?? role.seed,
    jsonMode: role.jsonMode,
    structured,
    ...extra,
  };
  const { key, messagesJson } = keyAndMessagesJson(parts);
  return { ...parts, structured, key, messagesJson, headers: requestHeaders(request.role, request.template) };
}

/** What one HTTP step (with its retries and repair) spent and produced, to be recorded. */
export type StepRecord = Omit<
  NewLlmCallRow,
  "cacheKey" | "role" | "baseUrl" | "model" | "costUsd" | "subject" | "latencyMs"
> & {
  promptTokens: number;
  completionTokens: number;
  attempts: number;
};

/** What a recorded step cost and how long it took (the latency stored with it). */
export interface StepCost {
  usage: LlmUsage;
  latencyMs: number;
}

/**
 * Records a step under the plan's key, reports it, and returns what it cost and took; resolves once
 * the row is committed, so nothing uses a reply that is not stored.
 */
export async function recordStep(
  ctx: ClientContext,
  request: LlmRequest<unknown>,
  plan: Plan,
  step: StepRecord,
  started: number,
): Promise<StepCost> {
  const usage = {
    promptTokens: step.promptTokens,
    completionTokens: step.completionTokens,
    costUsd: costUsd(ctx.config, plan.model, step.promptTokens, step.completionTokens),
  };
  const latencyMs = Date.now() - started;
  await ctx.store.record({
    ...step,
    cacheKey: plan.key,
    role: request.role,
    baseUrl: plan.baseUrl,
    model: plan.model,
    costUsd: usage.costUsd,
    latencyMs,
    subject: request.subject ?? null,
  });
  // Once committed: until then the memory still agrees with the table.
  ctx.replies.forget(plan.key);
  const ok = step.status === "ok";
  ctx.onCall?.({
    role: request.role,
    model: plan.model,
    baseUrl: plan.baseUrl,
    subject: request.subject,
    ok,
    cached: false,
    error: step.error ?? undefined,
    attempts: step.attempts,
    latencyMs,
    usage,
  });
  return { usage, latencyMs };
}

/** What a stored call cost when it was made. */
function storedUsage(row: Pick<OkReply, "promptTokens" | "completionTokens" | "costUsd">): LlmUsage {
  return { promptTokens: row.promptTokens, completionTokens: row.completionTokens, costUsd: row.costUsd };
}

/** What a stored call cost and took when it was made: a cache hit reports the original call's latency. */
export function storedCost(
  row: Pick<OkReply, "promptTokens" | "completionTokens" | "costUsd" | "latencyMs">,
): StepCost {
  return { usage: storedUsage(row), latencyMs: row.latencyMs };
}

/** Reports a cache hit (the database keeps no row for it). */
export function reportCached(ctx: ClientContext, request: LlmRequest<unknown>, plan: Plan, usage: LlmUsage): void {
  ctx.onCall?.({
    role: request.role,
    model: plan.model,
    baseUrl: plan.baseUrl,
    subject: request.subject,
    ok: true,
    cached: true,
    attempts: 0,
    latencyMs: 0,
    usage,
  });
}

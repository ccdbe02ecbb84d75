/**
 * The LLM client behind the `Llm` contract: role → endpoint and model from the configuration,
 * JSON replies validated against the caller's schema (with one repair round), retries with
 * backoff, a concurrency limit per endpoint, and a SQLite cache that also records every call.
 */
import OpenAI, { APIConnectionTimeoutError, APIError } from "openai";
import type { Db } from "../db.server.ts";
import { findOkCall, recordCall } from "../models/llm-call.server.ts";
import { cacheKey, type CacheKeyParts } from "./cache-key.server.ts";
import { apiKeyFor, costUsd, endpointFor, roleConfig, type EndpointConfig, type Env, type LlmConfig } from "./config.server.ts";
import { parseReply, repairMessage } from "../../domain/llm/reply-parsing.ts";
import {
  backoffMs,
  DEFAULT_BACKOFF,
  isRetryableStatus,
  MAX_RETRY_AFTER_MS,
  retryAfterMs,
  type BackoffOptions,
} from "../../domain/llm/retry-policy.ts";
import { Semaphore } from "../../domain/llm/semaphore.ts";
import type { ChatMessage, Llm, LlmRequest, LlmResult, LlmRole, LlmUsage } from "../../domain/llm/types.ts";

/** One finished `call`, for progress output and in-process tallies (see UsageTally). */
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

export interface CreateLlmOptions {
  db: Db;
  config: LlmConfig;
  onCall?: (event: LlmCallEvent) => void;
  /** Test seams: how to wait, the jitter source, and the backoff curve. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  backoff?: BackoffOptions;
  env?: Env;
}

interface Endpoint {
  name: string;
  config: EndpointConfig;
  client: OpenAI;
  limit: Semaphore;
}

/** The outcome of one completion request after retries. */
type Completion =
  | { ok: true; text: string; promptTokens: number; completionTokens: number; attempts: number }
  | { ok: false; error: string; attempts: number };

const ZERO_USAGE: LlmUsage = { promptTokens: 0, completionTokens: 0, costUsd: 0 };

/** A request with the role's configuration applied: what is sent, and the cache key it is stored under. */
interface Plan extends CacheKeyParts {
  key: string;
}

function planFor(config: LlmConfig, request: LlmRequest<unknown>): Plan {
  const role = roleConfig(config, request.role);
  const parts: CacheKeyParts = {
    baseUrl: endpointFor(config, request.role).endpoint.baseUrl,
    model: request.model ?? role.model,
    messages: request.messages,
    temperature: request.temperature ?? role.temperature,
    maxTokens: request.maxTokens ?? role.maxTokens,
    seed: request.seed ?? role.seed,
    jsonMode: role.jsonMode,
  };
  return { ...parts, key: cacheKey(parts) };
}

/** How a failed request is retried (test seams: how to wait, the jitter source, the backoff curve). */
interface RetrySettings {
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  backoff: BackoffOptions;
}

/** What every call of one client shares. */
interface ClientContext {
  db: Db;
  config: LlmConfig;
  onCall?: (event: LlmCallEvent) => void;
  endpointOf: (role: LlmRole) => Endpoint;
  retry: RetrySettings;
}

/** One OpenAI client and one concurrency limit per configured endpoint, made on first use. */
function endpointPool(config: LlmConfig, env: Env | undefined): (role: LlmRole) => Endpoint {
  const endpoints = new Map<string, Endpoint>();
  return (role) => {
    const { name, endpoint } = endpointFor(config, role);
    let found = endpoints.get(name);
    if (!found) {
      const client = new OpenAI({
        baseURL: endpoint.baseUrl,
        apiKey: apiKeyFor(config, name, env),
        maxRetries: 0, // retries are ours: backoff with jitter, Retry-After, and a record of attempts
        timeout: endpoint.timeoutMs,
      });
      found = { name, config: endpoint, client, limit: new Semaphore(endpoint.concurrency) };
      endpoints.set(name, found);
    }
    return found;
  };
}

/** One chat completion with retries on rate limits, server errors, network errors and timeouts. */
async function complete(endpoint: Endpoint, body: OpenAI.ChatCompletionCreateParamsNonStreaming, retry: RetrySettings): Promise<Completion> {
  const where = `${endpoint.config.baseUrl} (endpoint "${endpoint.name}")`;
  for (let attempt = 1; ; attempt++) {
    try {
      const reply = await endpoint.limit.run(() => endpoint.client.chat.completions.create(body));
      return {
        ok: true,
        text: reply.choices?.[0]?.message?.content ?? "",
        promptTokens: reply.usage?.prompt_tokens ?? 0,
        completionTokens: reply.usage?.completion_tokens ?? 0,
        attempts: attempt,
      };
    } catch (err) {
      const status = err instanceof APIError ? err.status : undefined;
      const problem = describeError(err, endpoint.config.timeoutMs);
      if (!(err instanceof APIError) || !isRetryableStatus(status)) {
        return { ok: false, error: `${problem} from ${where}; not retried`, attempts: attempt };
      }
      if (attempt > endpoint.config.maxRetries) {
        return { ok: false, error: `${problem} from ${where}; gave up after ${attempt} attempts`, attempts: attempt };
      }
      const asked = retryAfterMs(err.headers, Date.now());
      if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) {
        const wait = Math.round(asked / 1000);
        return {
          ok: false,
          error: `${problem} from ${where}; the server asked to wait ${wait} s, over the ${MAX_RETRY_AFTER_MS / 1000} s limit`,
          attempts: attempt,
        };
      }
      await retry.sleep(asked ?? backoffMs(attempt - 1, retry.random, retry.backoff));
    }
  }
}

/** The request parameters sent besides model and messages. */
function sentParams(plan: Plan) {
  return {
    temperature: plan.temperature,
    max_tokens: plan.maxTokens,
    seed: plan.seed,
    ...(plan.jsonMode ? { response_format: { type: "json_object" as const } } : {}),
  };
}

interface Answer<T> {
  outcome: { ok: true; value: T } | { ok: false; error: string };
  /** The last reply text, recorded with the call. */
  reply: string | null;
  attempts: number;
  promptTokens: number;
  completionTokens: number;
}

/** The first round asks; the second, only when the first reply is unusable, shows the model its error. */
async function askWithRepair<T>(endpoint: Endpoint, request: LlmRequest<T>, plan: Plan, retry: RetrySettings): Promise<Answer<T>> {
  const answer: Answer<T> = { outcome: { ok: false, error: "no reply" }, reply: null, attempts: 0, promptTokens: 0, completionTokens: 0 };
  let messages: ChatMessage[] = request.messages;
  for (let round = 0; round < 2; round++) {
    const completion = await complete(endpoint, { model: plan.model, messages, ...sentParams(plan) }, retry);
    answer.attempts += completion.attempts;
    if (!completion.ok) {
      answer.outcome = { ok: false, error: round === 0 ? completion.error : `repair request failed: ${completion.error}` };
      break;
    }
    answer.promptTokens += completion.promptTokens;
    answer.completionTokens += completion.completionTokens;
    answer.reply = completion.text;
    const parsed = parseReply(completion.text, request.schema);
    if (parsed.ok) {
      answer.outcome = parsed;
      break;
    }
    answer.outcome = { ok: false, error: round === 0 ? parsed.error : `invalid reply after one repair: ${parsed.error}` };
    messages = [...request.messages, { role: "assistant", content: completion.text }, { role: "user", content: repairMessage(parsed.error) }];
  }
  return answer;
}

/** Asks the endpoint, then records the call (cache and accounting) and reports it. */
async function execute<T>(ctx: ClientContext, request: LlmRequest<T>, plan: Plan): Promise<LlmResult<T>> {
  const started = Date.now();
  const { key, model } = plan;
  const endpoint = ctx.endpointOf(request.role);
  const { outcome, reply, attempts, promptTokens, completionTokens } = await askWithRepair(endpoint, request, plan, ctx.retry);
  const usage = { promptTokens, completionTokens, costUsd: costUsd(ctx.config, model, promptTokens, completionTokens) };
  const latencyMs = Date.now() - started;
  const error = outcome.ok ? null : outcome.error;
  recordCall(ctx.db, {
    cacheKey: key,
    role: request.role,
    baseUrl: endpoint.config.baseUrl,
    model,
    request: { messages: request.messages, ...sentParams(plan) },
    response: reply,
    parsed: outcome.ok ? (outcome.value as unknown) : null,
    status: outcome.ok ? "ok" : "failed",
    error,
    promptTokens,
    completionTokens,
    costUsd: usage.costUsd,
    attempts,
    latencyMs,
    subject: request.subject ?? null,
  });
  const event = { role: request.role, model, baseUrl: endpoint.config.baseUrl, subject: request.subject, ok: outcome.ok, cached: false };
  ctx.onCall?.({ ...event, error: error ?? undefined, attempts, latencyMs, usage });
  return outcome.ok ? { ok: true, value: outcome.value, cached: false, usage, model } : { ok: false, error: outcome.error, cached: false, usage, model };
}

/** A stored ok reply for this key that also satisfies this request's schema. */
function fromCache<T>(ctx: ClientContext, request: LlmRequest<T>, key: string, model: string): LlmResult<T> | undefined {
  const row = findOkCall(ctx.db, key);
  if (!row || row.response === null) return undefined;
  const parsed = parseReply(row.response, request.schema);
  if (!parsed.ok) return undefined; // same prompt, stricter schema: ask again
  const usage = { promptTokens: row.promptTokens, completionTokens: row.completionTokens, costUsd: row.costUsd };
  ctx.onCall?.({ role: request.role, model, baseUrl: row.baseUrl, subject: request.subject, ok: true, cached: true, attempts: 0, latencyMs: 0, usage });
  return { ok: true, value: parsed.value, cached: true, usage, model };
}

export function createLlm(options: CreateLlmOptions): Llm {
  const { config } = options;
  const ctx: ClientContext = {
    db: options.db,
    config,
    onCall: options.onCall,
    endpointOf: endpointPool(config, options.env),
    retry: {
      sleep: options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
      random: options.random ?? Math.random,
      backoff: options.backoff ?? DEFAULT_BACKOFF,
    },
  };
  const inFlight = new Map<string, Promise<LlmResult<unknown>>>();

  async function call<T>(request: LlmRequest<T>): Promise<LlmResult<T>> {
    const plan = planFor(config, request);
    const { key, model } = plan;

    const hit = fromCache(ctx, request, key, model);
    if (hit) return hit;

    // An identical request is already on its way: wait for it rather than pay twice.
    const pending = inFlight.get(key);
    if (pending) {
      const first = await pending;
      if (first.ok) return fromCache(ctx, request, key, model) ?? call(request);
      ctx.onCall?.({ role: request.role, model, baseUrl: plan.baseUrl, subject: request.subject, ok: false, cached: false, error: first.error, attempts: 0, latencyMs: 0, usage: ZERO_USAGE });
      return { ok: false, error: first.error, cached: false, usage: ZERO_USAGE, model };
    }

    const running = execute(ctx, request, plan);
    inFlight.set(key, running);
    try {
      return await running;
    } finally {
      inFlight.delete(key);
    }
  }

  return {
    call,
    callWithTools: async (request) => ({ ok: false, error: "callWithTools: not implemented yet", cached: false, usage: ZERO_USAGE, model: planFor(config, request).model }),
    webResearch: async (request) => ({ ok: false, error: "webResearch: not implemented yet", cached: false, usage: ZERO_USAGE, model: planFor(config, request).model, citations: [] }),
    modelFor: (role, override) => override ?? roleConfig(config, role).model,
  };
}

/** A one-line description of an HTTP or network failure: the status code, or the underlying cause. */
export function describeError(err: unknown, timeoutMs?: number): string {
  if (err instanceof APIConnectionTimeoutError) return `timed out${timeoutMs ? ` after ${timeoutMs} ms` : ""}`;
  if (err instanceof APIError && err.status !== undefined) {
    const detail = err.message.replace(/^\d{3}\s*/, "").trim();
    return `HTTP ${err.status}${detail && detail !== "status code (no body)" ? ` (${detail})` : ""}`;
  }
  if (!(err instanceof APIError)) return err instanceof Error ? err.message : String(err);
  // Network errors nest: the SDK's error wraps fetch's TypeError, which wraps the socket error.
  let cause: unknown = err;
  while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
  const message = cause instanceof Error ? cause.message : String(cause);
  // fetch refuses some ports outright (e.g. 9, 25), with a message that does not say so.
  return `network error: ${message === "bad port" ? "bad port (fetch refuses to connect to this port number)" : message}`;
}

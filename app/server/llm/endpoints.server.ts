/**
 * The HTTP side of the LLM client: per configured endpoint, one OpenAI SDK client and one
 * concurrency limit per server (a pool's replicas, or the one server), and every request sent
 * with our retry policy (backoff with jitter, Retry-After, a count of attempts) — on a pool, a
 * failed attempt goes to another replica in rotation (app/domain/llm/replica-pool.ts). Used alike
 * by chat calls, the tool loop and web research.
 */
import OpenAI, { APIConnectionTimeoutError, APIError } from "openai";
import {
  apiKeyFor,
  endpointFor,
  healthOf,
  replicasOf,
  type EndpointConfig,
  type Env,
  type LlmConfig,
  type ReplicaConfig,
} from "./config.server.ts";
import { chatPoster, type ChatPost } from "./chat-transport.server.ts";
import { leanFetch } from "./http-exchange.server.ts";
import { ReplicaPool } from "../../domain/llm/replica-pool.ts";
import {
  backoffMs,
  isRetryableStatus,
  MAX_RETRY_AFTER_MS,
  retryAfterMs,
  type BackoffOptions,
} from "../../domain/llm/retry-policy.ts";
import type { LlmRole } from "../../domain/llm/types.ts";

export interface Replica {
  config: ReplicaConfig;
  /** The SDK for requests other than chat completions (GET /models, the Responses API). */
  client: OpenAI;
  /** Chat completions (chat-transport.server.ts). */
  chat: ChatPost;
}

export interface Endpoint {
  name: string;
  config: EndpointConfig;
  replicas: Replica[];
  /** Slots, weights and health of the replicas (one replica for a plain endpoint, never taken out). */
  pool: ReplicaPool;
}

/** How a failed request is retried (test seams: how to wait, the jitter source, the backoff curve). */
export interface RetrySettings {
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  backoff: BackoffOptions;
}

/**
 * The outcome of one request after retries; a failure keeps the HTTP status and message for callers that react to them.
 */
export type Sent<R> =
  | { ok: true; value: R; attempts: number }
  | { ok: false; error: string; attempts: number; status?: number; message?: string };

const PROBE_TIMEOUT_MS = 10_000;

/**
 * One SDK client per server; retries are ours (backoff with jitter, Retry-After, a record of attempts), and so is the
 * fetch (http-exchange.server.ts: a fraction of the built-in one's CPU per request).
 */
export function sdkClient(baseUrl: string, apiKey: string, timeoutMs: number): OpenAI {
  return new OpenAI({ baseURL: baseUrl, apiKey, maxRetries: 0, timeout: timeoutMs, fetch: leanFetch });
}

/** An endpoint's replicas with their clients and their shared pool. */
export function openEndpoint(config: LlmConfig, name: string, env: Env | undefined): Endpoint {
  const endpoint = config.endpoints[name];
  const replicas = replicasOf(name, endpoint).map((r, i) => {
    const key = apiKeyFor(config, name, env, i);
    return { config: r, client: sdkClient(r.baseUrl, key, r.timeoutMs), chat: chatPoster(r.baseUrl, key, r.timeoutMs) };
  });
  const health = healthOf(endpoint);
  const policy = health ?? { failures: Infinity, backoffMs: 0, maxBackoffMs: 0 };
  // A replica back from its time out must first answer GET /models (soon: a probe should not stall).
  const probe = async (i: number) =>
    (await listModels(replicas[i].client, Math.min(PROBE_TIMEOUT_MS, replicas[i].config.timeoutMs))).ok;
  const pool = new ReplicaPool(
    replicas.map((r) => r.config),
    policy,
    health ? { probe } : {},
  );
  return { name, config: endpoint, replicas, pool };
}

/** One endpoint (its clients, limits and health) per configured name, made on first use and shared by every role. */
export function endpointPool(config: LlmConfig, env: Env | undefined): (role: LlmRole, override?: string) => Endpoint {
  const endpoints = new Map<string, Endpoint>();
  return (role, override) => {
    const { name } = endpointFor(config, role, override);
    let found = endpoints.get(name);
    if (!found) {
      found = openEndpoint(config, name, env);
      endpoints.set(name, found);
    }
    return found;
  };
}

/** Where a request went, for messages: the server and the endpoint (and replica) it belongs to. */
function where(endpoint: Endpoint, replica: number): string {
  const r = endpoint.replicas[replica].config;
  return endpoint.config.replicas
    ? `${r.baseUrl} (replica "${r.name}" of pool "${endpoint.name}")`
    : `${r.baseUrl} (endpoint "${endpoint.name}")`;
}

/** A pool's replicas and their last errors, for the message of a call that failed on all of them. */
function poolReport(endpoint: Endpoint): string {
  if (!endpoint.config.replicas) return "";
  const lines = endpoint.replicas.map((r, i) => {
    const s = endpoint.pool.status(i);
    return `${r.config.name} ${r.config.baseUrl} ${s.inRotation ? "in rotation" : "out of rotation"}${s.lastError ? `: ${s.lastError}` : ""}`;
  });
  return `; replicas: ${lines.join("; ")}`;
}

type Attempt<R> = { value: R } | { err: unknown; status?: number; asked?: number };

/**
 * One request on one replica. Its outcome is told to the pool before the slot is released, so a
 * call waiting for that slot already sees a replica that has just been taken out.
 */
async function attemptOn<R>(
  endpoint: Endpoint,
  replica: number,
  send: (replica: Replica) => Promise<R>,
): Promise<Attempt<R>> {
  try {
    const value = await send(endpoint.replicas[replica]);
    endpoint.pool.succeeded(replica);
    return { value };
  } catch (err) {
    const status = err instanceof APIError ? err.status : undefined;
    const asked = err instanceof APIError ? retryAfterMs(err.headers, Date.now()) : undefined;
    // Only the server's troubles count against it; a request it rightly refused (4xx) does not.
    if (err instanceof APIError && isRetryableStatus(status))
      endpoint.pool.failed(replica, describeError(err, endpoint.replicas[replica].config.timeoutMs), asked);
    return { err, status, asked };
  } finally {
    endpoint.pool.release(replica);
  }
}

/**
 * Sends one request with retries on rate limits, server errors, network errors and timeouts. On a
 * pool a failed attempt is tried at once on another replica in rotation; when none is left, the
 * call waits its backoff (or the Retry-After) first. maxRetries bounds the attempts either way.
 */
export async function sendWithRetries<R>(
  endpoint: Endpoint,
  send: (replica: Replica) => Promise<R>,
  retry: RetrySettings,
): Promise<Sent<R>> {
  const tried = new Set<number>();
  for (let attempt = 1; ; attempt++) {
    const replica = await endpoint.pool.acquire(tried);
    tried.add(replica);
    const outcome = await attemptOn(endpoint, replica, send);
    if ("value" in outcome) return { ok: true, value: outcome.value, attempts: attempt };
    const { err, status, asked } = outcome;
    const problem = describeError(err, endpoint.replicas[replica].config.timeoutMs);
    const failed = (error: string) => ({
      ok: false as const,
      error,
      attempts: attempt,
      status,
      message: err instanceof Error ? err.message : String(err),
    });
    const from = `${problem} from ${where(endpoint, replica)}`;
    if (!(err instanceof APIError) || !isRetryableStatus(status)) return failed(`${from}; not retried`);
    if (attempt > endpoint.config.maxRetries)
      return failed(`${from}; gave up after ${attempt} attempts${poolReport(endpoint)}`);
    if (endpoint.pool.hasOther(tried)) continue; // another replica in rotation: no need to wait
    if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) {
      const wait = Math.round(asked / 1000);
      return failed(
        `${from}; the server asked to wait ${wait} s, over the ${MAX_RETRY_AFTER_MS / 1000} s limit${poolReport(endpoint)}`,
      );
    }
    tried.clear();
    await retry.sleep(asked ?? backoffMs(attempt - 1, retry.random, retry.backoff));
  }
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
  return `network error: ${cause instanceof Error ? cause.message : String(cause)}`;
}

export type ModelListing =
  | { ok: true; models: string[]; latencyMs: number }
  | { ok: false; error: string; latencyMs: number };

/**
 * A server's health check: GET {baseUrl}/models, which OpenAI, vLLM and SGLang all serve. A pool
 * asks it before a replica comes back into rotation; `llm check` reports it.
 */
export async function listModels(client: OpenAI, timeoutMs?: number): Promise<ModelListing> {
  const started = Date.now();
  try {
    const page = await client.models.list(timeoutMs === undefined ? undefined : { timeout: timeoutMs });
    return { ok: true, models: page.data.map((m) => m.id), latencyMs: Date.now() - started };
  } catch (err) {
    return { ok: false, error: describeError(err, timeoutMs), latencyMs: Date.now() - started };
  }
}

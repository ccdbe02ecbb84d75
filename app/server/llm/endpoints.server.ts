/**
 * The HTTP side of the LLM client: one OpenAI SDK client and one concurrency limit per configured
 * endpoint, and every request sent with our retry policy (backoff with jitter, Retry-After, a
 * count of attempts). Used alike by chat calls, the tool loop and web research.
 */
import OpenAI, { APIConnectionTimeoutError, APIError } from "openai";
import { apiKeyFor, endpointFor, type EndpointConfig, type Env, type LlmConfig } from "./config.server.ts";
import { backoffMs, isRetryableStatus, MAX_RETRY_AFTER_MS, retryAfterMs, type BackoffOptions } from "../../domain/llm/retry-policy.ts";
import { Semaphore } from "../../domain/llm/semaphore.ts";
import type { LlmRole } from "../../domain/llm/types.ts";

export interface Endpoint {
  name: string;
  config: EndpointConfig;
  client: OpenAI;
  limit: Semaphore;
}

/** How a failed request is retried (test seams: how to wait, the jitter source, the backoff curve). */
export interface RetrySettings {
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  backoff: BackoffOptions;
}

/** The outcome of one request after retries; a failure keeps the HTTP status and message for callers that react to them. */
export type Sent<R> =
  | { ok: true; value: R; attempts: number }
  | { ok: false; error: string; attempts: number; status?: number; message?: string };

/** One OpenAI client and one concurrency limit per configured endpoint, made on first use. */
export function endpointPool(config: LlmConfig, env: Env | undefined): (role: LlmRole, override?: string) => Endpoint {
  const endpoints = new Map<string, Endpoint>();
  return (role, override) => {
    const { name, endpoint } = endpointFor(config, role, override);
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

/** Sends one request with retries on rate limits, server errors, network errors and timeouts. */
export async function sendWithRetries<R>(endpoint: Endpoint, send: (client: OpenAI) => Promise<R>, retry: RetrySettings): Promise<Sent<R>> {
  const where = `${endpoint.config.baseUrl} (endpoint "${endpoint.name}")`;
  for (let attempt = 1; ; attempt++) {
    try {
      const value = await endpoint.limit.run(() => send(endpoint.client));
      return { ok: true, value, attempts: attempt };
    } catch (err) {
      const status = err instanceof APIError ? err.status : undefined;
      const problem = describeError(err, endpoint.config.timeoutMs);
      const failed = (error: string) => ({ ok: false as const, error, attempts: attempt, status, message: err instanceof Error ? err.message : String(err) });
      if (!(err instanceof APIError) || !isRetryableStatus(status)) return failed(`${problem} from ${where}; not retried`);
      if (attempt > endpoint.config.maxRetries) return failed(`${problem} from ${where}; gave up after ${attempt} attempts`);
      const asked = retryAfterMs(err.headers, Date.now());
      if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) {
        const wait = Math.round(asked / 1000);
        return failed(`${problem} from ${where}; the server asked to wait ${wait} s, over the ${MAX_RETRY_AFTER_MS / 1000} s limit`);
      }
      await retry.sleep(asked ?? backoffMs(attempt - 1, retry.random, retry.backoff));
    }
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
  const message = cause instanceof Error ? cause.message : String(cause);
  // fetch refuses some ports outright (e.g. 9, 25), with a message that does not say so.
  return `network error: ${message === "bad port" ? "bad port (fetch refuses to connect to this port number)" : message}`;
}

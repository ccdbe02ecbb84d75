/**
 * When to retry an HTTP call to a model endpoint, and how long to wait first. Pure: the caller
 * passes the random source and the current time.
 */

/** Rate limits, request timeouts and server errors are worth another try; other 4xx are not. */
export function isRetryableStatus(status: number | undefined): boolean {
  if (status === undefined) return true; // no response at all: network error or timeout
  return status === 408 || status === 429 || status >= 500;
}

export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * The wait the server asked for, in ms: `retry-after-ms`, else `Retry-After` as seconds or as an
 * HTTP date. Undefined when absent or unreadable.
 */
export function retryAfterMs(headers: HeaderSource | undefined, now: number): number | undefined {
  const ms = headers?.get("retry-after-ms");
  if (ms != null && ms.trim() !== "") {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return n;
  }
  const value = headers?.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface BackoffOptions {
  /** First retry waits up to this long; each further retry doubles the ceiling. */
  baseMs: number;
  /** The ceiling never grows past this. */
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 500, maxMs: 30_000 };

/** A server may ask for at most this long a wait; beyond it the call gives up rather than stall a batch. */
export const MAX_RETRY_AFTER_MS = 120_000;

/**
 * Exponential backoff with full jitter: a uniform wait in [0, min(max, base·2^retry)), which
 * spreads out clients that failed together. `retry` counts from 0.
 */
export function backoffMs(retry: number, random: () => number, options: BackoffOptions = DEFAULT_BACKOFF): number {
  return random() * Math.min(options.maxMs, options.baseMs * 2 ** retry);
}

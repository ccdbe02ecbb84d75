/**
 * Counts failed logins per key (an account name, a client network) in this process's memory: a
 * key that failed `max` times within `windowSeconds` of its first failure is refused until that
 * window ends. Memory is enough for the single server process this app runs as; the counts
 * reset when it restarts.
 */
export interface LimitSettings {
  max: number;
  windowSeconds: number;
}

interface Window {
  failures: number;
  endsAt: number;
}

/** Past this many keys, expired windows are swept on the next failure (an attacker cannot grow the map for ever). */
const SWEEP_AT = 10_000;

export class FailureLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(readonly settings: LimitSettings) {}

  /** Seconds until `key` may try again; 0 when it may now. */
  retryAfter(key: string, now = Date.now()): number {
    const w = this.windows.get(key);
    if (!w || w.endsAt <= now) return 0;
    return w.failures >= this.settings.max ? Math.ceil((w.endsAt - now) / 1000) : 0;
  }

  recordFailure(key: string, now = Date.now()): void {
    if (this.windows.size >= SWEEP_AT) for (const [k, w] of this.windows) if (w.endsAt <= now) this.windows.delete(k);
    const w = this.windows.get(key);
    if (!w || w.endsAt <= now) this.windows.set(key, { failures: 1, endsAt: now + this.settings.windowSeconds * 1000 });
    else w.failures += 1;
  }

  /** Takes back one failure counted up front for an attempt that succeeded. */
  forgive(key: string): void {
    const w = this.windows.get(key);
    if (w) w.failures = Math.max(0, w.failures - 1);
  }

  clear(key: string): void {
    this.windows.delete(key);
  }
}

function positiveInt(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number (got "${raw}")`);
  return n;
}

/** LOGIN_MAX_FAILURES_PER_ACCOUNT (10), LOGIN_MAX_FAILURES_PER_ADDRESS (30), LOGIN_FAILURE_WINDOW_SECONDS (900). */
export function loginLimitSettings(env: Record<string, string | undefined> = process.env): {
  account: LimitSettings;
  address: LimitSettings;
} {
  const windowSeconds = positiveInt(env, "LOGIN_FAILURE_WINDOW_SECONDS", 15 * 60);
  return {
    account: { max: positiveInt(env, "LOGIN_MAX_FAILURES_PER_ACCOUNT", 10), windowSeconds },
    address: { max: positiveInt(env, "LOGIN_MAX_FAILURES_PER_ADDRESS", 30), windowSeconds },
  };
}

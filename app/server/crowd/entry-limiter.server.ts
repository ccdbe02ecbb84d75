/**
 * Rows created by unsigned crowd entries (issue 29): a Prolific visit with a new SESSION_ID, an
 * MTurk ExternalQuestion answer or draft from a worker id the app has not seen. Anyone can type
 * those ids, so each study takes at most so many such entries per window from one client network,
 * and at most so many in all; past either, the entry is refused with 429 and Retry-After and
 * nothing is written. Counts live in this process's memory (like the login limits) and reset on
 * restart. Signed links are not limited here: the researcher made each one.
 */
import { FailureLimiter, type LimitSettings } from "../auth/login-limiter.server.ts";

export interface EntryLimitSettings {
  perNetwork: LimitSettings;
  perStudy: LimitSettings;
}

function positiveInt(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number (got "${raw}")`);
  return n;
}

/** CROWD_ENTRIES_PER_NETWORK (20), CROWD_ENTRIES_PER_STUDY (500), CROWD_ENTRY_WINDOW_SECONDS (3600). */
export function entryLimitSettings(env: Record<string, string | undefined> = process.env): EntryLimitSettings {
  const windowSeconds = positiveInt(env, "CROWD_ENTRY_WINDOW_SECONDS", 3600);
  return {
    perNetwork: { max: positiveInt(env, "CROWD_ENTRIES_PER_NETWORK", 20), windowSeconds },
    perStudy: { max: positiveInt(env, "CROWD_ENTRIES_PER_STUDY", 500), windowSeconds },
  };
}

export class CrowdEntryLimiter {
  private readonly network: FailureLimiter;
  private readonly study: FailureLimiter;

  constructor(settings: EntryLimitSettings) {
    this.network = new FailureLimiter(settings.perNetwork);
    this.study = new FailureLimiter(settings.perStudy);
  }

  /** Seconds until the study takes another new entry from this network; 0 when it may now. */
  retryAfter(studyId: number, network: string, now = Date.now()): number {
    return Math.max(this.network.retryAfter(`${studyId}:${network}`, now), this.study.retryAfter(String(studyId), now));
  }

  /** Counts one entry that created rows. */
  record(studyId: number, network: string, now = Date.now()): void {
    this.network.recordFailure(`${studyId}:${network}`, now);
    this.study.recordFailure(String(studyId), now);
  }
}

let shared: CrowdEntryLimiter | null = null;

/** The server's one limiter, built from the environment on first use. */
export function crowdEntryLimiter(): CrowdEntryLimiter {
  shared ??= new CrowdEntryLimiter(entryLimitSettings());
  return shared;
}

export const ENTRY_LIMIT_MESSAGE =
  "Too many new participants have entered this study from your network (or in all) just now, so no more can start for the moment. " +
  "Please try again later; if you share a network with other participants, contact the researcher.";

/** The refusal every limited entry answers with. */
export class EntryLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(ENTRY_LIMIT_MESSAGE);
  }
}

/** Whether one request's entry has been counted yet (its transaction may run more than once). */
export interface EntryTally {
  counted: boolean;
}

/**
 * Runs `enter` inside the caller's write transaction and counts it when it created rows; an
 * entry that would create rows past the limit throws EntryLimited, which rolls the transaction
 * back (write-lock.server.ts), so nothing of it is kept. A returning participant (nothing new)
 * passes. Check and count happen without an await between them (after the write), so parallel
 * entries cannot slip past the cap. PostgreSQL may run the transaction again after a conflict:
 * `tally`, made once per request outside it, keeps the entry from being counted twice.
 */
export async function limitedEntry<T>(
  limiter: CrowdEntryLimiter,
  studyId: number,
  network: string,
  enter: () => Promise<{ value: T; created: boolean }>,
  tally: EntryTally = { counted: false },
  now = Date.now(),
): Promise<T> {
  const { value, created } = await enter();
  if (!created || tally.counted) return value;
  const wait = limiter.retryAfter(studyId, network, now);
  if (wait > 0) throw new EntryLimited(wait);
  limiter.record(studyId, network, now);
  tally.counted = true;
  return value;
}

/**
 * How the web server writes. SQLite has one write lock per database. When another process holds
 * it (a `socrates import` of a large bundle, for seconds), waiting inside SQLite would block the
 * server's event loop — better-sqlite3 is synchronous — and so stall every request, reads
 * included. Instead a web write tries to take the lock without waiting (the web connection's
 * busy timeout is 0) and, finding it taken, tries again after an asynchronous pause, until a
 * generous deadline; past it the request changes nothing and answers 503 with Retry-After.
 *
 * Once the lock is held, the request's synchronous service call runs inside that transaction
 * (the service's own `writeTransaction` calls become savepoints) and commits at once. No
 * transaction is ever held across an `await`: the service call is synchronous, and with the
 * event loop never yielding between BEGIN and COMMIT, requests of this process cannot interleave
 * inside one another's transactions.
 */
import { endWrite, inTransaction, isBusyError, tryBeginWrite, type Db } from "../db.server.ts";
import { ServiceError } from "./errors.server.ts";

/** How long a web write waits for the lock before answering 503 (SOCRATES_WRITE_WAIT_MS). */
export const DEFAULT_WRITE_WAIT_MS = 30_000;
/** What the 503 asks the client to wait before trying again. */
export const RETRY_AFTER_SECONDS = 5;
const FIRST_PAUSE_MS = 2;
const MAX_PAUSE_MS = 50;

export function writeWaitMs(): number {
  const configured = Number(process.env.SOCRATES_WRITE_WAIT_MS);
  return process.env.SOCRATES_WRITE_WAIT_MS && Number.isFinite(configured) && configured >= 0
    ? configured
    : DEFAULT_WRITE_WAIT_MS;
}

/** The write lock stayed taken past the wait: nothing was changed and the client may try again. */
export class DatabaseBusyError extends Error {
  readonly retryAfterSeconds = RETRY_AFTER_SECONDS;
  constructor() {
    super(
      "The database is busy with a large change (such as an import). Nothing was saved; please try again in a few seconds.",
    );
    this.name = "DatabaseBusyError";
  }
}

/** A lock that could not be had, from the wait above or from SQLite itself (any stray SQLITE_BUSY). */
export function isDatabaseBusy(err: unknown): boolean {
  return err instanceof DatabaseBusyError || isBusyError(err);
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/**
 * Runs the synchronous `work` holding the write lock, waiting for the lock asynchronously for
 * up to `maxWaitMs` (then DatabaseBusyError, with nothing run). Called while already inside a
 * write (synchronously, from such a `work`), it simply runs `work` there.
 */
export async function withWriteLock<T>(db: Db, work: () => T, maxWaitMs = writeWaitMs()): Promise<Awaited<T>> {
  if (inTransaction(db)) return work() as Awaited<T>;
  const deadline = performance.now() + maxWaitMs;
  for (let pause = FIRST_PAUSE_MS; !tryBeginWrite(db); pause = Math.min(2 * pause, MAX_PAUSE_MS)) {
    if (performance.now() + pause > deadline) throw new DatabaseBusyError();
    // Jitter, so waiting requests do not all retry in the same tick.
    await sleep(pause * (0.5 + Math.random()));
  }
  return runLocked(db, work) as Awaited<T>;
}

/**
 * Runs `work` in the transaction just begun and ends it. A service refusal (ServiceError) or a
 * Remix response thrown as control flow is an answer, so what was written before it is kept,
 * exactly as it would have been without the surrounding transaction; any other error is a
 * crash and rolls everything back. An async `work` (a password hash first) has only its
 * synchronous start inside the lock: the rest runs after the commit, and any write it makes
 * there must take the lock again through `withWriteLock`.
 */
function runLocked<T>(db: Db, work: () => T): T {
  let result: T;
  try {
    result = work();
  } catch (err) {
    endWrite(db, err instanceof ServiceError || err instanceof Response);
    throw err;
  }
  endWrite(db, true);
  return result;
}

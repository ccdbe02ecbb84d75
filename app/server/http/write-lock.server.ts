/**
 * How the web server writes. SQLite has one write lock per database. When another process holds
 * it (a `socrates import` of a large bundle, for seconds), waiting inside SQLite would block the
 * server's event loop — better-sqlite3 is synchronous — and so stall every request, reads
 * included. Instead a web write tries to take the lock without waiting (the web connection's
 * busy timeout is 0) and, finding it taken, tries again after an asynchronous pause, until a
 * generous deadline; past it the request changes nothing and answers 503 with Retry-After.
 *
 * The lock is taken by `transact` (app/server/db-transaction.server.ts): on SQLite its writer
 * connection waits asynchronously; on PostgreSQL the transaction is serializable and re-run on a
 * conflict, so the work must touch nothing but the database.
 */
import { isBusyError, type Db } from "../db.server.ts";
import { DatabaseBusy, transact } from "../db-transaction.server.ts";
import { ServiceError } from "./errors.server.ts";

/** How long a web write waits for the lock before answering 503 (SOCRATES_WRITE_WAIT_MS). */
export const DEFAULT_WRITE_WAIT_MS = 30_000;
/** What the 503 asks the client to wait before trying again. */
export const RETRY_AFTER_SECONDS = 5;

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

/**
 * Runs `work` in one write transaction (app/server/db-transaction.server.ts), waiting for another
 * process's lock asynchronously for up to `maxWaitMs` (then DatabaseBusyError, with nothing run).
 * `work` gets the transaction's handle and must query through it; `lock` names the advisory lock
 * of work that changes a study's allocation (transact's `lock`, studyLock). A service refusal
 * (ServiceError) or a Remix response thrown as control flow is an answer, so what was written
 * before it is kept, exactly as without the surrounding transaction; any other error is a crash
 * and rolls everything back.
 */
export async function withWriteLock<T>(
  db: Db,
  work: (tx: Db) => T | Promise<T>,
  { maxWaitMs = writeWaitMs(), lock }: { maxWaitMs?: number; lock?: string } = {},
): Promise<Awaited<T>> {
  let outcome: { value: Awaited<T> } | { answer: unknown };
  try {
    outcome = await transact(
      db,
      async (tx) => {
        try {
          return { value: await work(tx) };
        } catch (err) {
          if (err instanceof ServiceError || err instanceof Response) return { answer: err };
          throw err;
        }
      },
      { maxWaitMs, lock },
    );
  } catch (err) {
    throw err instanceof DatabaseBusy ? new DatabaseBusyError() : err;
  }
  if ("answer" in outcome) throw outcome.answer;
  return outcome.value;
}

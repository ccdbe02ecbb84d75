/**
 * Turns service errors into HTTP responses, so every route reports them the same way, and runs
 * the routes' writes under the write lock (app/server/http/write-lock.server.ts): a route writes
 * only inside `actionResult` or `orResponseWrite`. A database lock that cannot be had, or a full
 * disk, answers 503 with Retry-After (unavailable.server.ts), never 500.
 */
import { json } from "@remix-run/node";
import { getDb, type Db } from "../db.server.ts";
import { ServiceError } from "./errors.server.ts";
import { noteUnavailable, unavailableHeaders, unavailableReason } from "./unavailable.server.ts";
import { withWriteLock } from "./write-lock.server.ts";

const STATUS_TEXT: Record<ServiceError["status"], string> = {
  400: "Bad Request",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
};

/**
 * The response a loader throws for a service refusal, a busy database or a full disk; null for anything else (a bug:
 * 500).
 */
function errorResponse(err: unknown): Response | null {
  if (err instanceof ServiceError)
    return new Response(err.message, { status: err.status, statusText: STATUS_TEXT[err.status] });
  const reason = unavailableReason(err);
  if (!reason) return null;
  noteUnavailable(reason);
  return new Response(reason.message, {
    status: 503,
    statusText: "Service Unavailable",
    headers: unavailableHeaders(reason),
  });
}

/** For loaders that only read: rethrows service errors as responses the error boundary shows (403, 404, …). */
export async function orResponse<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw errorResponse(err) ?? err;
  }
}

/**
 * Where a web write runs: the database handle the route already holds (else the process's), and the
 * lock of a study whose allocation it changes (`studyLock`: taken from the start on PostgreSQL,
 * rather than the transaction starting again when the service asks for it).
 */
export interface WriteOptions {
  db?: Db;
  lock?: string;
  /**
   * false: `fn` opens its own transactions after slow work of its own (a password hashed), which must
   * not hold the write lock; the answers to errors are the same.
   */
  transaction?: boolean;
}

/**
 * For loaders that write (a lease, a crowd entry): `orResponse` run under the write lock, waited for without blocking.
 */
export async function orResponseWrite<T>(fn: (tx: Db) => T | Promise<T>, o: WriteOptions = {}): Promise<Awaited<T>> {
  const db = o.db ?? (await getDb());
  try {
    return await withWriteLock(db, fn, { lock: o.lock });
  } catch (err) {
    throw errorResponse(err) ?? err;
  }
}

export interface ActionFailure {
  ok: false;
  message: string;
  problems: { path: string; message: string }[];
}

/**
 * For actions: runs `fn` under the write lock; service errors become a JSON body with the
 * message and field problems, with their status, and a busy database or full disk a 503 with
 * Retry-After.
 * `fn` gets the transaction's handle and queries through it; it must not wait on the network.
 */
export async function actionResult<T>(fn: (tx: Db) => T | Promise<T>, o: WriteOptions = {}) {
  const db = o.db ?? (await getDb());
  try {
    return o.transaction === false ? await fn(db) : await withWriteLock(db, fn, { lock: o.lock });
  } catch (err) {
    if (err instanceof ServiceError) {
      return json<ActionFailure>({ ok: false, message: err.message, problems: err.problems }, { status: err.status });
    }
    const reason = unavailableReason(err);
    if (!reason) throw err;
    noteUnavailable(reason);
    return json<ActionFailure>(
      { ok: false, message: reason.message, problems: [] },
      { status: 503, headers: unavailableHeaders(reason) },
    );
  }
}

/**
 * For an action that writes after an await (a login: the password check, then the session row),
 * outside `actionResult`: a busy database or full disk becomes `{ error }` with 503 and
 * Retry-After, for the form to show; anything else is rethrown.
 */
export async function orUnavailable<T>(fn: () => Promise<T>) {
  try {
    return await fn();
  } catch (err) {
    const reason = unavailableReason(err);
    if (!reason) throw err;
    noteUnavailable(reason);
    return json({ error: reason.message }, { status: 503, headers: unavailableHeaders(reason) });
  }
}

/** A form field holding JSON: the parsed value, or undefined when it is not JSON (the action reports it). */
export function formJson(form: FormData, name: string): unknown {
  try {
    return JSON.parse(String(form.get(name) ?? "null"));
  } catch {
    return undefined;
  }
}

/** The `secondsOnTask` field: null when absent or empty (the label store checks the range). */
export function formSeconds(form: FormData): number | null {
  const value = form.get("secondsOnTask");
  return value === null || value === "" ? null : Number(value);
}

/**
 * `data` exactly as `json()` delivers it to the page (NaN and Infinity as null, undefined fields dropped, dates as
 * strings), for a loader to return as a plain object: single fetch then serialises it once, where a `json()` Response
 * was stringified, encoded, decoded and parsed back first — most of a large cached page's time.
 */
export function asJsonData<T>(data: T): T {
  return JSON.parse(JSON.stringify(data)) as T;
}

/**
 * `(key) => asJsonData(make(key))`, worked out once per key object: for what a cache hands to every request unchanged
 * (the same object until its data changes), so its JSON form is made once, not per request.
 */
export function jsonDataOnce<K extends object, T>(make: (key: K) => T): (key: K) => T {
  const made = new WeakMap<K, T>();
  return (key) => {
    let data = made.get(key);
    if (data === undefined) made.set(key, (data = asJsonData(make(key))));
    return data;
  };
}

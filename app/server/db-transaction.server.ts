/**
 * Write transactions whose work may await its own queries, with the same guarantee on both
 * engines: every transaction behaves as if the writes ran one at a time, and nobody outside it
 * sees a half-done one (issue 34; docs/deploy.md).
 *
 * - SQLite: one transaction at a time per process (a queue), on the process's one connection,
 *   after BEGIN IMMEDIATE: SQLite's one write lock orders the processes, and a lock another process
 *   holds is waited for asynchronously, never inside SQLite. Other processes, in WAL mode, see only
 *   committed states. Within the process, a query of other work that runs while a transaction
 *   awaits shares its connection, so it reads the transaction's writes and a write of its own joins
 *   the transaction (a second connection would make that write wait for this process's own lock).
 * - PostgreSQL: SERIALIZABLE isolation, and the whole work run again when PostgreSQL reports a
 *   serialization failure or a deadlock, so concurrent transactions of several servers behave as
 *   if run one at a time. The work must therefore have no effect outside the database.
 *   Work that many servers run at once on the same rows (allocating a study's items) names a
 *   `lock`: an advisory lock taken before the transaction begins, so such transactions queue
 *   instead of failing each other's serialization and being re-run (measured: 50 annotators on
 *   two servers exhausted the re-runs). A locked transaction nested in an unlocked one makes the
 *   outer one start again, holding the lock from its beginning (its snapshot must postdate the
 *   lock). SQLite ignores `lock`: its transactions already run one at a time.
 *
 * Inside the work, every query goes through `tx` (on PostgreSQL a query on the outer handle runs
 * outside the transaction); a transaction started on `tx` is a savepoint inside the one it is in.
 */
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import * as schema from "../../db/schema.ts";
import { endWrite, tryBeginWrite, type Db } from "./db.server.ts";
import { dialectOf, markPostgres } from "./db-dialect.server.ts";
import { withSessionLocks, type PgDb } from "./db-pg.server.ts";

const inTransaction = new WeakSet<object>();

export interface TransactOptions {
  /** Roll everything back and still return the work's result (a dry run reports what it would do). */
  dryRun?: boolean;
  /**
   * A bulk write whose records the database's unique keys protect (a bundle import): on PostgreSQL
   * REPEATABLE READ instead of SERIALIZABLE, whose predicate locks a large import would exhaust, and
   * run again after a unique-key clash as after a conflict (the new run reads the clashing record).
   */
  bulk?: boolean;
  /** How long to wait for another process's write lock (SQLite) before DatabaseBusy. */
  maxWaitMs?: number;
  /** PostgreSQL: the advisory lock this work holds from before its transaction begins (see above). */
  lock?: string;
}

/** The lock key of the transactions that change who may label a study's items next. */
export const studyLock = (studyId: number) => `study:${studyId}`;

/** The write lock stayed taken past the wait: nothing was run. */
export class DatabaseBusy extends Error {
  constructor(waitedMs: number) {
    super(`the database stayed locked by another process for ${waitedMs} ms; nothing was written`);
  }
}

class DryRunRollback extends Error {
  constructor(readonly result: unknown) {
    super("dry run");
  }
}

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

interface SqliteQueue {
  /** Settles when the last queued transaction of this process on the database has ended. */
  tail: Promise<void>;
  /**
   * The handle transactions work through: the same connection under a handle of its own, so that
   * `transact` on it nests while `transact` on the database's own handle waits its turn.
   */
  tx: Db;
}

// On globalThis, like the engine marks (db-dialect.server.ts): the web server's source and the Remix
// build share one queue per database.
const sharedQueues = globalThis as unknown as Record<symbol, WeakMap<Db, SqliteQueue> | undefined>;
const queues: WeakMap<Db, SqliteQueue> = (sharedQueues[Symbol.for("socrates.sqlite-queues")] ??= new WeakMap());

/** Closes a database handle: a SQLite file's connection or a PostgreSQL pool. */
export async function closeDatabase(db: Db): Promise<void> {
  if (dialectOf(db) === "postgres") return (db as unknown as PgDb).$client.end();
  queues.delete(db);
  if (db.$client.open) db.$client.close();
}

type Client = Db["$client"];

/** Each connection's busy timeout, read before every write transaction: prepared once (a pragma call prepares anew). */
const busyTimeoutReads = new WeakMap<Client, { get(): unknown }>();
function busyTimeoutOf(client: Client): number {
  let read = busyTimeoutReads.get(client);
  if (!read) busyTimeoutReads.set(client, (read = client.prepare("PRAGMA busy_timeout").pluck()));
  return read.get() as number;
}

async function beginWrite(db: Db, maxWaitMs: number): Promise<void> {
  // The lock is waited for here, between tries, never inside SQLite (which would block the event loop).
  // The web server's connection has no busy timeout to begin with (getDb): nothing to change and put back.
  const busyTimeout = busyTimeoutOf(db.$client);
  if (busyTimeout !== 0) db.$client.pragma("busy_timeout = 0");
  try {
    const started = performance.now();
    for (let pause = 1; !tryBeginWrite(db); pause = Math.min(2 * pause, 50)) {
      const waited = performance.now() - started;
      if (waited + pause > maxWaitMs) throw new DatabaseBusy(Math.round(waited));
      await sleep(pause * (0.5 + Math.random()));
    }
  } finally {
    if (busyTimeout !== 0) db.$client.pragma(`busy_timeout = ${busyTimeout}`);
  }
}

async function sqliteTransact<T>(db: Db, work: (tx: Db) => Promise<T>, o: TransactOptions): Promise<T> {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = { tail: Promise.resolve(), tx: drizzle(db.$client, { schema }) as Db }));
  const { tx } = queue;
  const previous = queue.tail;
  let done!: () => void;
  queue.tail = new Promise<void>((ok) => (done = ok));
  await previous;
  try {
    await beginWrite(db, o.maxWaitMs ?? 30_000);
    inTransaction.add(tx);
    let committed = false;
    try {
      const result = await work(tx);
      committed = !o.dryRun;
      return result;
    } finally {
      inTransaction.delete(tx);
      endWrite(db, committed);
    }
  } finally {
    done();
  }
}

/** PostgreSQL's SQLSTATEs after which the whole transaction may simply be run again. */
const RETRYABLE = new Set(["40001", "40P01"]);
const UNIQUE_VIOLATION = "23505";

function sqlState(err: unknown): string | undefined {
  for (let e = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/** The locks a PostgreSQL transaction holds, and those that work nested in it asked for. */
interface PgLocks {
  held: ReadonlySet<string>;
  wanted: Set<string>;
}
const pgLocks = new WeakMap<object, PgLocks>();

/** Ends an unlocked transaction whose nested work needs a lock: it starts again holding it. */
class LockNeeded extends Error {
  constructor(key: string) {
    super(`the transaction starts again holding the lock ${key}`);
  }
}

async function pgTransaction<T>(handle: PgDb, work: (tx: Db) => Promise<T>, o: TransactOptions, locks: PgLocks) {
  return await handle.transaction(
    async (tx) => {
      markPostgres(tx);
      inTransaction.add(tx);
      pgLocks.set(tx, locks);
      const result = await work(tx as unknown as Db);
      // The work may have caught the LockNeeded a nested transaction threw: it starts again all the same.
      if (locks.wanted.size > 0) throw new LockNeeded([...locks.wanted].join(", "));
      if (o.dryRun) throw new DryRunRollback(result);
      return result;
    },
    { isolationLevel: o.bulk ? "repeatable read" : "serializable" },
  );
}

async function postgresTransact<T>(db: Db, work: (tx: Db) => Promise<T>, o: TransactOptions): Promise<T> {
  const pgDb = db as unknown as PgDb;
  const keys = new Set(o.lock ? [o.lock] : []);
  for (let attempt = 1; ; attempt++) {
    const locks: PgLocks = { held: new Set(keys), wanted: new Set() };
    try {
      if (keys.size === 0) return await pgTransaction(pgDb, work, o, locks);
      return await withSessionLocks(pgDb, [...keys], (handle) => pgTransaction(handle, work, o, locks));
    } catch (err) {
      if (err instanceof DryRunRollback) return err.result as T;
      if (locks.wanted.size > 0) {
        for (const key of locks.wanted) keys.add(key);
        continue;
      }
      const state = sqlState(err) ?? "";
      if (!(RETRYABLE.has(state) || (o.bulk && state === UNIQUE_VIOLATION)) || attempt >= 20) throw err;
      await sleep(Math.random() * Math.min(100, 2 ** attempt));
    }
  }
}

let savepoints = 0;

async function execute(tx: Db, statement: string): Promise<void> {
  if (dialectOf(tx) === "postgres") await (tx as unknown as PgDb).execute(sql.raw(statement));
  else tx.$client.exec(statement);
}

/** A transaction inside a transaction: a savepoint, so its failure undoes its own writes only. */
async function nestedTransact<T>(tx: Db, work: (tx: Db) => Promise<T>, o: TransactOptions): Promise<T> {
  const name = `nested_${++savepoints}`;
  await execute(tx, `SAVEPOINT ${name}`);
  let result: T;
  try {
    result = await work(tx);
  } catch (err) {
    await execute(tx, `ROLLBACK TO SAVEPOINT ${name}`);
    await execute(tx, `RELEASE SAVEPOINT ${name}`);
    throw err;
  }
  if (o.dryRun) await execute(tx, `ROLLBACK TO SAVEPOINT ${name}`);
  await execute(tx, `RELEASE SAVEPOINT ${name}`);
  return result;
}

/**
 * Runs `work` in one write transaction on `db`'s engine (see above); a call on a transaction's `tx`
 * runs as a savepoint inside it.
 */
export function transact<T>(db: Db, work: (tx: Db) => Promise<T>, options: TransactOptions = {}): Promise<T> {
  if (inTransaction.has(db)) {
    const locks = pgLocks.get(db);
    if (options.lock && locks && !locks.held.has(options.lock)) {
      locks.wanted.add(options.lock);
      return Promise.reject(new LockNeeded(options.lock));
    }
    return nestedTransact(db, work, options);
  }
  return dialectOf(db) === "postgres" ? postgresTransact(db, work, options) : sqliteTransact(db, work, options);
}

/** Whether `db` is a transaction's handle (work inside `transact`). */
export function insideTransaction(db: Db): boolean {
  return inTransaction.has(db);
}

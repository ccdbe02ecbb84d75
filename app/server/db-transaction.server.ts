/**
 * Write transactions whose work may await its own queries, with the same guarantee on both
 * engines: every transaction behaves as if the writes ran one at a time, and nobody outside it
 * sees a half-done one (issue 34; docs/deploy.md).
 *
 * - SQLite: a process writes on a second connection to the file (its writer), one transaction at
 *   a time (a queue in the process), after BEGIN IMMEDIATE (SQLite's one write lock orders the
 *   processes; a lock held by another process is waited for asynchronously, never inside
 *   SQLite). The process's other queries read on the first connection and, in WAL mode, see only
 *   committed states, however long the writer's transaction awaits.
 * - PostgreSQL: SERIALIZABLE isolation, and the whole work run again when PostgreSQL reports a
 *   serialization failure or a deadlock, so concurrent transactions of several servers behave as
 *   if run one at a time. The work must therefore have no effect outside the database.
 *
 * Inside the work, every query goes through `tx` (a query on the outer handle would not see the
 * transaction's writes); a transaction started on `tx` is a savepoint inside the one it is in.
 */
import { sql } from "drizzle-orm";
import { connectSqlite, endWrite, tryBeginWrite, type Db } from "./db.server.ts";
import { dialectOf, markPostgres } from "./db-dialect.server.ts";
import type { PgDb } from "./db-pg.server.ts";

const inTransaction = new WeakSet<object>();

export interface TransactOptions {
  /** Roll everything back and still return the work's result (a dry run reports what it would do). */
  dryRun?: boolean;
  /** How long to wait for another process's write lock (SQLite) before DatabaseBusy. */
  maxWaitMs?: number;
}

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

interface SqliteWriter {
  writer: Db;
  /** Settles when the last queued transaction of this process has ended. */
  tail: Promise<void>;
}

const writers = new WeakMap<Db, SqliteWriter>();

function writerOf(db: Db): SqliteWriter {
  let found = writers.get(db);
  if (!found) {
    // An in-memory database has no file a second connection could open: it writes on its one connection.
    const writer = db.$client.memory ? db : connectSqlite(db.$client.name);
    if (writer !== db) writer.$client.pragma("busy_timeout = 0");
    found = { writer, tail: Promise.resolve() };
    writers.set(db, found);
  }
  return found;
}

/** Closes a database handle: a SQLite file's connections (the writer `transact` opened too) or a PostgreSQL pool. */
export async function closeDatabase(db: Db): Promise<void> {
  if (dialectOf(db) === "postgres") return (db as unknown as PgDb).$client.end();
  const found = writers.get(db);
  if (found && found.writer !== db) found.writer.$client.close();
  writers.delete(db);
  if (db.$client.open) db.$client.close();
}

async function beginWrite(writer: Db, maxWaitMs: number): Promise<void> {
  const started = performance.now();
  for (let pause = 1; !tryBeginWrite(writer); pause = Math.min(2 * pause, 50)) {
    const waited = performance.now() - started;
    if (waited + pause > maxWaitMs) throw new DatabaseBusy(Math.round(waited));
    await sleep(pause * (0.5 + Math.random()));
  }
}

async function sqliteTransact<T>(db: Db, work: (tx: Db) => Promise<T>, o: TransactOptions): Promise<T> {
  const w = writerOf(db);
  const previous = w.tail;
  let done!: () => void;
  w.tail = new Promise<void>((ok) => (done = ok));
  await previous;
  try {
    await beginWrite(w.writer, o.maxWaitMs ?? 30_000);
    inTransaction.add(w.writer);
    let committed = false;
    try {
      const result = await work(w.writer);
      committed = !o.dryRun;
      return result;
    } finally {
      inTransaction.delete(w.writer);
      endWrite(w.writer, committed);
    }
  } finally {
    done();
  }
}

/** PostgreSQL's SQLSTATEs after which the whole transaction may simply be run again. */
const RETRYABLE = new Set(["40001", "40P01"]);

function sqlState(err: unknown): string | undefined {
  for (let e = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

async function postgresTransact<T>(db: Db, work: (tx: Db) => Promise<T>, o: TransactOptions): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await (db as unknown as PgDb).transaction(
        async (tx) => {
          markPostgres(tx);
          inTransaction.add(tx);
          const result = await work(tx as unknown as Db);
          if (o.dryRun) throw new DryRunRollback(result);
          return result;
        },
        { isolationLevel: "serializable" },
      );
    } catch (err) {
      if (err instanceof DryRunRollback) return err.result as T;
      if (!RETRYABLE.has(sqlState(err) ?? "") || attempt >= 20) throw err;
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
  if (inTransaction.has(db)) return nestedTransact(db, work, options);
  return dialectOf(db) === "postgres" ? postgresTransact(db, work, options) : sqliteTransact(db, work, options);
}

/**
 * Runs `read` on one snapshot, so a value computed inside matches a version mark read inside. SQLite:
 * a read transaction (BEGIN DEFERRED) on the reading connection; a read that starts while another is
 * open there joins it. PostgreSQL: a REPEATABLE READ, READ ONLY transaction.
 */
export async function readSnapshot<T>(db: Db, read: (db: Db) => Promise<T>): Promise<T> {
  if (inTransaction.has(db)) return read(db);
  if (dialectOf(db) === "postgres") {
    return (db as unknown as PgDb).transaction(
      async (tx) => {
        markPostgres(tx);
        inTransaction.add(tx);
        return read(tx as unknown as Db);
      },
      { isolationLevel: "repeatable read", accessMode: "read only" },
    );
  }
  if (db.$client.inTransaction) return read(db);
  db.$client.exec("BEGIN DEFERRED");
  try {
    return await read(db);
  } finally {
    if (db.$client.inTransaction) db.$client.exec("COMMIT");
  }
}

/**
 * The embedded SQLite database: one connection per process, WAL journal, foreign keys on,
 * migrations applied on open. The CLI's connection has a busy timeout, so it waits for another
 * process's write lock inside SQLite; the web server's has none, because that wait would block
 * its event loop: its writes take the lock through app/server/http/write-lock.server.ts, which
 * waits asynchronously.
 */
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { eq, isNull } from "drizzle-orm";
import * as schema from "../../db/schema.ts";
import { recordedIdentity } from "../domain/simulation/run-identity.ts";

import { transact } from "./db-transaction.server.ts";
export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export const DEFAULT_DB_PATH = "data/socrates.db";
/** How long the CLI (and tests) wait inside SQLite for another process's write lock. */
const CLI_BUSY_TIMEOUT_MS = 5000;
/**
 * The project's db/<folder> of migrations (db/migrations, db/migrations-pg), found upwards from this
 * module (the sources, the CLI bundle in dist/cli and the app build all sit inside the project), so
 * a command run from any folder finds it.
 */
export function migrationsDir(folder: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "db", folder);
    if (existsSync(join(candidate, "meta", "_journal.json"))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return resolve(process.cwd(), "db", folder);
    dir = parent;
  }
}
const MIGRATIONS_DIR = migrationsDir("migrations");
/**
 * After a checkpoint resets the write-ahead log, SQLite truncates it to this size: a log grown by
 * one large write (an import) does not keep its disk space for good.
 */
const WAL_SIZE_LIMIT_BYTES = 4 * 1024 * 1024;

/**
 * SOCRATES_DB_MAX_PAGES, a setting for tests only: caps the database at that many pages
 * (PRAGMA max_page_count), so a write past it fails with SQLITE_FULL exactly as on a full disk.
 */
export function testPageLimit(env: NodeJS.ProcessEnv = process.env): number | null {
  const raw = env.SOCRATES_DB_MAX_PAGES;
  if (raw === undefined || raw === "") return null;
  const pages = Number(raw);
  if (!Number.isSafeInteger(pages) || pages < 1)
    throw new Error(`SOCRATES_DB_MAX_PAGES must be a whole number of pages (at least 1), got "${raw}"`);
  return pages;
}

export function databasePath(): string {
  return resolve(process.cwd(), process.env.SOCRATES_DB ?? DEFAULT_DB_PATH);
}

/** Opens (creating if needed) a database file and brings its schema up to date. */
export async function openDatabase(path: string = databasePath()): Promise<Db> {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma(`busy_timeout = ${CLI_BUSY_TIMEOUT_MS}`);
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  const pageLimit = testPageLimit();
  if (pageLimit !== null) sqlite.pragma(`max_page_count = ${pageLimit}`);
  const db = drizzle(sqlite, { schema }) as Db;
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  await backfillRunIdentity(db);
  return db;
}

/**
 * Runs stored before runs had an identity (migration 0015) get it from the settings they
 * recorded — the same function the bundle store applies to every new run — so they are found
 * and reused, never re-simulated. Idempotent: only rows without a hash are touched, so after the
 * first open this is one indexed query that finds nothing.
 */
export async function backfillRunIdentity(db: Db): Promise<number> {
  const { runs } = schema;
  const pending = await db
    .select({
      id: runs.id,
      conditionId: runs.conditionId,
      simulator: runs.simulatorBackbone,
      mediator: runs.mediatorBackbone,
      config: runs.config,
      seed: runs.seed,
    })
    .from(runs)
    .where(isNull(runs.settingsHash));
  if (pending.length === 0) return 0;
  await transact(db, async (tx) => {
    for (const r of pending) {
      const identity = recordedIdentity({
        condition_id: r.conditionId,
        simulator_backbone: r.simulator,
        mediator_backbone: r.mediator,
        config: r.config,
        seed: r.seed,
      });
      await tx.update(runs).set(identity).where(eq(runs.id, r.id));
    }
  });
  return pending.length;
}

const cache = globalThis as unknown as { __socratesDb?: Db };

/**
 * The process-wide connection used by the web app (kept across dev-server reloads). Opening
 * and migrating may wait for the lock like the CLI; after that SQLite never waits (busy
 * timeout 0): a write finding the lock taken fails at once with SQLITE_BUSY, and
 * `withWriteLock` retries it after an asynchronous pause.
 */
export async function getDb(): Promise<Db> {
  if (!cache.__socratesDb) {
    const db = await openDatabase();
    db.$client.pragma("busy_timeout = 0");
    cache.__socratesDb = db;
  }
  return cache.__socratesDb;
}

/** True for SQLite's "database is locked" answers (SQLITE_BUSY and its extended codes). */
export function isBusyError(err: unknown): boolean {
  return err instanceof Database.SqliteError && err.code.startsWith("SQLITE_BUSY");
}

/**
 * After a bulk write (an import): copies the write-ahead log into the database and truncates it to
 * zero bytes, so the log does not keep as much disk as the import wrote (23 MB after a 7.5 MB
 * bundle, found with the disk full). Best effort, and never inside a transaction: a reader still
 * on an older snapshot past this connection's busy timeout, or a full disk, leaves the log to
 * SQLite's own checkpoints. Returns whether the log was emptied.
 */
export function checkpointWal(db: Db): boolean {
  if (db.$client.inTransaction || db.$client.memory) return false;
  try {
    const [result] = db.$client.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
    return result?.busy === 0;
  } catch {
    return false;
  }
}

/**
 * Takes the write lock now (BEGIN IMMEDIATE) and says so, or returns false when another
 * connection holds it (after no more than this connection's busy timeout).
 */
export function tryBeginWrite(db: Db): boolean {
  try {
    db.$client.exec("BEGIN IMMEDIATE");
    return true;
  } catch (err) {
    if (isBusyError(err)) return false;
    throw err;
  }
}

/** Ends the transaction `tryBeginWrite` opened: COMMIT, or ROLLBACK when `commit` is false. */
export function endWrite(db: Db, commit: boolean): void {
  if (!db.$client.inTransaction) return; // SQLite already rolled back (e.g. after a disk error)
  try {
    db.$client.exec(commit ? "COMMIT" : "ROLLBACK");
  } finally {
    if (db.$client.inTransaction) db.$client.exec("ROLLBACK");
  }
}

/**
 * Runs `work` on one snapshot of the database: a read transaction held across its awaits, so every
 * read sees the same committed state while other processes write (WAL). Only for a connection
 * nothing else in the process uses meanwhile (a command's own, e.g. `db copy`'s source).
 */
export async function onOneSnapshot<T>(db: Db, work: () => Promise<T>): Promise<T> {
  db.$client.exec("BEGIN");
  try {
    return await work();
  } finally {
    if (db.$client.inTransaction) db.$client.exec("COMMIT");
  }
}

/** True while this connection is inside a transaction (a nested write joins it as a savepoint). */
export function inTransaction(db: Db): boolean {
  return db.$client.inTransaction;
}

/** Carries a dry run's result out of the transaction it rolls back. */
class DryRunRollback extends Error {
  constructor(readonly result: unknown) {
    super("dry run");
  }
}

/**
 * Runs `work` in one IMMEDIATE transaction (the write lock taken up front, so nothing slips in
 * between check and write). With `dryRun` everything is rolled back and `work`'s result is still
 * returned, so a dry run reports exactly what the real run would have done.
 */
export function writeTransaction<T>(db: Db, work: () => T, options: { dryRun?: boolean } = {}): T {
  try {
    return db.$client
      .transaction(() => {
        const result = work();
        if (options.dryRun) throw new DryRunRollback(result);
        return result;
      })
      .immediate();
  } catch (err) {
    if (err instanceof DryRunRollback) return err.result as T;
    throw err;
  }
}

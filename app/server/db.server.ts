/**
 * The database handle of a process. Unset DATABASE_URL: the embedded SQLite file (WAL journal,
 * foreign keys on, migrations applied on open). DATABASE_URL=postgres://…: PostgreSQL
 * (db-pg.server.ts). Queries are written once against db/schema.ts and awaited; writes go through
 * `transact` (db-transaction.server.ts), which on SQLite writes on a second connection and waits
 * for another process's lock asynchronously, so no connection here ever waits inside SQLite
 * except while opening.
 */
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { SQL } from "drizzle-orm";
import { eq, isNull } from "drizzle-orm";
import * as schema from "../../db/schema.ts";
import { recordedIdentity } from "../domain/simulation/run-identity.ts";
import { dialectOf, isPostgresUrl, migrationsDir, type Db } from "./db-dialect.server.ts";
import { openPostgresAsDb, type PgDb } from "./db-pg.server.ts";

export type { Db } from "./db-dialect.server.ts";

export const DEFAULT_DB_PATH = "data/socrates.db";
/** How long the CLI (and tests) wait inside SQLite for another process's write lock. */
const CLI_BUSY_TIMEOUT_MS = 5000;
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

/**
 * A connection to a database file, set up as every connection of the project is (WAL, foreign
 * keys, the CLI's busy timeout), without touching its schema.
 */
export function connectSqlite(path: string): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma(`busy_timeout = ${CLI_BUSY_TIMEOUT_MS}`);
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
  const pageLimit = testPageLimit();
  if (pageLimit !== null) sqlite.pragma(`max_page_count = ${pageLimit}`);
  return drizzle(sqlite, { schema }) as Db;
}

/**
 * Opens the database at `target` and brings its schema up to date: a postgres:// URL, or a SQLite
 * file (created if needed). By default the process's own (DATABASE_URL, else SOCRATES_DB, else
 * data/socrates.db).
 */
export function openDatabase(target: string = databaseTarget()): Promise<Db> {
  return isPostgresUrl(target) ? openPostgresAsDb(target) : openSqlite(target);
}

async function openSqlite(path: string): Promise<Db> {
  const db = connectSqlite(path);
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  backfillRunIdentity(db);
  return db;
}

/**
 * Runs stored before runs had an identity (migration 0015) get it from the settings they
 * recorded — the same function the bundle store applies to every new run — so they are found
 * and reused, never re-simulated. Idempotent: only rows without a hash are touched, so after the
 * first open this is one indexed query that finds nothing. SQLite only, on opening (a PostgreSQL
 * database starts at the current schema), so it may use better-sqlite3's synchronous calls.
 */
export function backfillRunIdentity(db: Db): number {
  const { runs } = schema;
  const pending = db
    .select({
      id: runs.id,
      conditionId: runs.conditionId,
      simulator: runs.simulatorBackbone,
      mediator: runs.mediatorBackbone,
      config: runs.config,
      seed: runs.seed,
    })
    .from(runs)
    .where(isNull(runs.settingsHash))
    .all();
  if (pending.length === 0) return 0;
  db.transaction((tx) => {
    for (const r of pending) {
      const identity = recordedIdentity({
        condition_id: r.conditionId,
        simulator_backbone: r.simulator,
        mediator_backbone: r.mediator,
        config: r.config,
        seed: r.seed,
      });
      tx.update(runs).set(identity).where(eq(runs.id, r.id)).run();
    }
  });
  return pending.length;
}

const cache = globalThis as unknown as { __socratesDb?: Promise<Db> };

/** Where this process's data lives: DATABASE_URL, else SOCRATES_DB (a file or a postgres:// URL), else the default. */
export function databaseTarget(env: NodeJS.ProcessEnv = process.env): string {
  if (env.DATABASE_URL) return env.DATABASE_URL;
  return env.SOCRATES_DB && isPostgresUrl(env.SOCRATES_DB) ? env.SOCRATES_DB : databasePath();
}

/** The target for people to read: a URL without its password. */
export function describeTarget(target: string = databaseTarget()): string {
  if (!isPostgresUrl(target)) return target;
  const url = new URL(target);
  if (url.password) url.password = "***";
  return url.href;
}

/**
 * The process-wide handle used by the web app (kept across dev-server reloads), opened once.
 * Opening and migrating may wait for SQLite's lock like the CLI; after that the reading
 * connection never waits (busy timeout 0): it only reads, and in WAL mode a read never waits.
 */
export function getDb(): Promise<Db> {
  cache.__socratesDb ??= openDatabase().then((db) => {
    if (dialectOf(db) === "sqlite") db.$client.pragma("busy_timeout = 0");
    return db;
  });
  return cache.__socratesDb;
}

/** How many rows a write changed, from either engine's result (SQLite's `changes`, PostgreSQL's `rowCount`). */
export function changedRows(result: unknown): number {
  const r = result as { changes?: number; rowCount?: number | null };
  return r.changes ?? r.rowCount ?? 0;
}

/** The rows of a hand-written query (`sql\`…\``), on either engine. */
export async function rawRows<T>(db: Db, query: SQL): Promise<T[]> {
  if (dialectOf(db) === "postgres") return (await (db as unknown as PgDb).execute(query)).rows as T[];
  // better-sqlite3 answers synchronously; the await keeps one signature for both engines.
  return db.all<T>(query);
}

/** The first row of a hand-written query, or undefined. */
export async function rawRow<T>(db: Db, query: SQL): Promise<T | undefined> {
  return (await rawRows<T>(db, query))[0];
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
  if (dialectOf(db) === "postgres" || db.$client.inTransaction || db.$client.memory) return false;
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

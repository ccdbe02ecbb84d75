/**
 * The embedded SQLite database: one connection per process, WAL journal, foreign keys on,
 * a busy timeout so concurrent writers wait instead of failing, migrations applied on open.
 */
import Database from "better-sqlite3";
import { drizzle, type BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import * as schema from "../../db/schema.ts";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export const DEFAULT_DB_PATH = "data/socrates.db";
const MIGRATIONS_DIR = resolve(process.cwd(), "db/migrations");

export function databasePath(): string {
  return resolve(process.cwd(), process.env.SOCRATES_DB ?? DEFAULT_DB_PATH);
}

/** Opens (creating if needed) a database file and brings its schema up to date. */
export function openDatabase(path: string = databasePath()): Db {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("synchronous = NORMAL");
  const db = drizzle(sqlite, { schema }) as Db;
  migrate(db, { migrationsFolder: MIGRATIONS_DIR });
  return db;
}

const cache = globalThis as unknown as { __socratesDb?: Db };

/** The process-wide connection used by the web app (kept across dev-server reloads). */
export function getDb(): Db {
  cache.__socratesDb ??= openDatabase();
  return cache.__socratesDb;
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

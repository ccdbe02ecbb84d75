/** Real databases for tests, one per test: SQLite files in a fresh temporary directory, or PostgreSQL databases. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase } from "../app/server/db-transaction.server.ts";
import { sql } from "drizzle-orm";
import { openDatabase, rawRows, type Db } from "../app/server/db.server.ts";
import { dialectOf } from "../app/server/db-dialect.server.ts";
import { pgDatabase } from "./postgres.ts";

export function tempDir(prefix = "socrates-test-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TempDb {
  db: Db;
  /** The SQLite file, or the PostgreSQL database's URL. */
  path: string;
  /** A scratch folder of the test's own. */
  dir: string;
  /** Closes and deletes it (on PostgreSQL asynchronously: return it from afterEach). */
  cleanup: () => void | Promise<void>;
}

/**
 * A fresh database with the current schema: a SQLite file, or, when SOCRATES_TEST_ENGINE=postgres
 * (the suite's PostgreSQL project, vitest.config.ts), a database of its own on the test server.
 */
export async function tempDb(): Promise<TempDb> {
  const { dir, cleanup } = tempDir();
  if (testEngine() === "postgres") {
    const database = await pgDatabase({ migrated: true });
    const db = await openDatabase(database.url);
    return {
      db,
      path: database.url,
      dir,
      cleanup: () => closeDatabase(db).then(database.drop).finally(cleanup),
    };
  }
  const path = join(dir, "test.db");
  const db = await openDatabase(path);
  return {
    db,
    path,
    dir,
    cleanup: () => {
      void closeDatabase(db); // SQLite's connections close at once
      cleanup();
    },
  };
}

/** The engine this test process runs its databases on. */
export const testEngine = (): "sqlite" | "postgres" =>
  process.env.SOCRATES_TEST_ENGINE === "postgres" ? "postgres" : "sqlite";

/** Row counts of every table: a cheap fingerprint for "the database is unchanged". */
export async function tableCounts(db: Db): Promise<Record<string, number>> {
  const tables = await rawRows<{ name: string }>(
    db,
    dialectOf(db) === "postgres"
      ? sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`
      : sql`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
              AND name NOT LIKE '__drizzle%' ORDER BY name`,
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    counts[name] = (await rawRows<{ n: number }>(db, sql`SELECT count(*) AS n FROM ${sql.identifier(name)}`))[0].n;
  }
  return counts;
}

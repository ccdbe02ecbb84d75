/** Databases made at an earlier migration, for tests of migrations that rewrite stored data. */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { expect } from "vitest";
import { tempDir } from "../../harness/temp-db.ts";

const MIGRATIONS = resolve("db/migrations");

/** A copy of the migrations folder (inside `dir`) whose journal stops at `lastTag`. */
function migrationsUpTo(dir: string, lastTag: string): string {
  const folder = join(dir, "migrations");
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journalFile = join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((e) => e.tag === lastTag);
  expect(last).toBeGreaterThanOrEqual(0);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }));
  return folder;
}

export interface OldDatabase {
  sqlite: Database.Database;
  /** Applies every migration up to the newest. */
  migrateToLatest(): void;
  cleanup(): void;
}

/** A fresh database file migrated up to (and including) the migration tagged `lastTag`. */
export function databaseAt(lastTag: string): OldDatabase {
  const tmp = tempDir();
  const sqlite = new Database(join(tmp.dir, "old.db"));
  const db = drizzle(sqlite);
  migrate(db, { migrationsFolder: migrationsUpTo(tmp.dir, lastTag) });
  return {
    sqlite,
    migrateToLatest: () => migrate(db, { migrationsFolder: MIGRATIONS }),
    cleanup: () => {
      sqlite.close();
      tmp.cleanup();
    },
  };
}

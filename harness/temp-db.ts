/** Real SQLite files in a fresh temporary directory, one per test. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeDatabase } from "../app/server/db-transaction.server.ts";
import { openDatabase, type Db } from "../app/server/db.server.ts";

export function tempDir(prefix = "socrates-test-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function tempDb(): Promise<{ db: Db; path: string; dir: string; cleanup: () => void }> {
  const { dir, cleanup } = tempDir();
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

/** Row counts of every table: a cheap fingerprint for "the database is unchanged". */
export function tableCounts(db: Db): Record<string, number> {
  const tables = db.$client
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' ORDER BY name",
    )
    .all() as { name: string }[];
  return Object.fromEntries(
    tables.map(({ name }) => [
      name,
      (db.$client.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n,
    ]),
  );
}

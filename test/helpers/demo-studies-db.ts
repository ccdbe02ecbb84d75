/**
 * A fresh SQLite file with the demo bundles, accounts and studies (what most crowd and annotation tests start from).
 */
import { join } from "node:path";
import { openDatabase } from "../../app/server/db.server.ts";
import { closeDatabase } from "../../app/server/db-transaction.server.ts";
import { seedDemoStudies } from "../../demo/studies.ts";
import { seedDemo } from "../../harness/annotation.ts";
import { tempDb, tempDir, testEngine, type TempDb } from "../../harness/temp-db.ts";
import { pgDatabase } from "../../harness/postgres.ts";

export async function demoStudiesDb(): Promise<Awaited<ReturnType<typeof tempDb>>> {
  const t = await tempDb();
  await seedDemo(t.db);
  await seedDemoStudies(t.db);
  return t;
}

/**
 * The demo studies seeded once and handed out as copies, for a file whose every test starts from
 * them (seeding them per test was most of such a file's time): each `copy()` is a file of its own,
 * written by VACUUM INTO from the seeded one, so a test still changes nothing another test sees.
 */
export async function demoStudiesTemplate(): Promise<{
  copy: () => Promise<TempDb>;
  cleanup: () => void | Promise<void>;
}> {
  if (testEngine() === "postgres") return postgresTemplate();
  const seeded = await demoStudiesDb();
  const copy = async (): Promise<TempDb> => {
    const { dir, cleanup } = tempDir();
    const path = join(dir, "test.db");
    seeded.db.$client.prepare("VACUUM INTO ?").run(path);
    const db = await openDatabase(path);
    const close = () => {
      void closeDatabase(db); // SQLite's connections close at once
      cleanup();
    };
    return { db, path, dir, cleanup: close };
  };
  return { copy, cleanup: seeded.cleanup };
}

/** On PostgreSQL the copies are CREATE DATABASE … TEMPLATE of the seeded database (closed for it). */
async function postgresTemplate() {
  const seeded = await pgDatabase({ migrated: true });
  const db = await openDatabase(seeded.url);
  await seedDemo(db);
  await seedDemoStudies(db);
  await closeDatabase(db);
  const copy = async (): Promise<TempDb> => {
    const { dir, cleanup } = tempDir();
    const database = await pgDatabase({ copyOf: seeded.url });
    const copied = await openDatabase(database.url);
    return {
      db: copied,
      path: database.url,
      dir,
      cleanup: () => closeDatabase(copied).then(database.drop).finally(cleanup),
    };
  };
  return { copy, cleanup: seeded.drop };
}

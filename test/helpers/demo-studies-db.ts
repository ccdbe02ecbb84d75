/**
 * A fresh SQLite file with the demo bundles, accounts and studies (what most crowd and annotation tests start from).
 */
import { join } from "node:path";
import { openDatabase } from "../../app/server/db.server.ts";
import { closeDatabase } from "../../app/server/db-transaction.server.ts";
import { seedDemoStudies } from "../../demo/studies.ts";
import { seedDemo } from "../../harness/annotation.ts";
import { tempDb, tempDir } from "../../harness/temp-db.ts";

type TempDb = Awaited<ReturnType<typeof tempDb>>;

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
export async function demoStudiesTemplate(): Promise<{ copy: () => Promise<TempDb>; cleanup: () => void }> {
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

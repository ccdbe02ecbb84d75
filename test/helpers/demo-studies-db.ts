/** A fresh SQLite file with the demo bundles, accounts and studies (what most crowd and annotation tests start from). */
import { seedDemoStudies } from "../../demo/studies.ts";
import { seedDemo } from "../../harness/annotation.ts";
import { tempDb } from "../../harness/temp-db.ts";

export async function demoStudiesDb(): Promise<ReturnType<typeof tempDb>> {
  const t = tempDb();
  seedDemo(t.db);
  await seedDemoStudies(t.db);
  return t;
}

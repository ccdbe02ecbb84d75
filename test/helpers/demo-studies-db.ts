/** A fresh SQLite file with the demo bundles, accounts and studies (what most crowd and annotation tests start from). */
import { seedDemoStudies } from "../../db/demo/studies.ts";
import { seedDemo } from "./annotation.ts";
import { tempDb } from "./temp-db.ts";

export async function demoStudiesDb(): Promise<ReturnType<typeof tempDb>> {
  const t = tempDb();
  seedDemo(t.db);
  await seedDemoStudies(t.db);
  return t;
}

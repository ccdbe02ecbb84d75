/** The demo study shipped in demo/: fictional data written for this project. */
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { importBundleFiles, type BundleFile, type ImportSummary } from "../app/server/bundle-store.server.ts";
import type { Db } from "../app/server/db.server.ts";
import { scenarioIds } from "../app/server/models/scenario.server.ts";

export const DEMO_DIR = resolve(process.cwd(), "demo");

export function readBundleDir(dir: string): BundleFile[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith(".json"))
    .sort()
    .map((name) => ({ file: join(dir, name), bytes: readFileSync(join(dir, name)) }));
}

/** Imports the demo bundles (idempotent: records already present are left as they are). */
export async function seedDemo(db: Db): Promise<ImportSummary> {
  return await importBundleFiles(db, readBundleDir(DEMO_DIR));
}

export async function isEmpty(db: Db): Promise<boolean> {
  return (await scenarioIds(db)).length === 0;
}

/**
 * Sizes the database for a real benchmark: 40 scenarios × 15 conditions × 9 mediator settings
 * (8 mediators + none) = 5,400 runs of 30 turns, each with a topic-localized and a per-turn
 * evaluation. Prints the import time, the file size, and the latency of the run viewer's and
 * run list's queries. Synthetic data; figures only, no pass/fail.
 *
 *   npm run bench:db        (SCALE=0.1 for a quick look)
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { count } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "../db/schema.ts";
import { createRng, randomInt } from "../app/domain/stats/rng.ts";
import { syntheticBundle } from "./synthetic-bundle.ts";
import { exportBundle, importBundleFiles } from "../app/server/bundle-store.server.ts";
import { getRunView, listRuns } from "../app/server/catalog.server.ts";
import { openDatabase } from "../app/server/db.server.ts";
import { closeDatabase } from "../app/server/db-transaction.server.ts";

const SCALE = Number(process.env.SCALE ?? 1);
const SCENARIOS = Math.max(1, Math.round(40 * SCALE));
const rng = createRng(7);

async function time<T>(fn: () => T | Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await fn();
  return [value, (performance.now() - start) / 1000];
}

const dir = mkdtempSync(join(tmpdir(), "socrates-bench-db-"));
try {
  const [text, genSeconds] = await time(() => JSON.stringify(syntheticBundle(SCENARIOS)));
  const db = await openDatabase(join(dir, "bench.db"));
  const [summary, importSeconds] = await time(() => importBundleFiles(db, [{ file: "synthetic.json", text }]));
  db.$client.pragma("wal_checkpoint(TRUNCATE)");
  const size = statSync(join(dir, "bench.db")).size;
  const runIds = (await db.select({ id: schema.runs.id }).from(schema.runs)).map((r) => r.id);
  const sample = Array.from({ length: 200 }, () => runIds[randomInt(rng, runIds.length)]);
  const [, viewSeconds] = await time(async () => {
    for (const id of sample) await getRunView(db, id);
  });
  const [, listSeconds] = await time(() => listRuns(db, { scenarioId: "bench-0" }));
  const [, reimportSeconds] = await time(() => importBundleFiles(db, [{ file: "synthetic.json", text }]));
  const [, exportSeconds] = await time(() => exportBundle(db));
  const rows = async (table: SQLiteTable) => (await db.select({ n: count() }).from(table).limit(1))[0]!.n;
  console.log(`Synthetic benchmark database (scale ${SCALE})`);
  console.table({
    runs: { value: summary.inserted.runs },
    turns: { value: await rows(schema.turns) },
    snippets: { value: await rows(schema.snippets) },
    evaluations: { value: summary.inserted.evaluations },
    "evaluation_scores rows": { value: await rows(schema.evaluationScores) },
    "bundle size (MB)": { value: +(text.length / 1e6).toFixed(1) },
    "database size (MB)": { value: +(size / 1e6).toFixed(1) },
    "generate bundle (s)": { value: +genSeconds.toFixed(2) },
    "import, one transaction (s)": { value: +importSeconds.toFixed(2) },
    "re-import, all unchanged (s)": { value: +reimportSeconds.toFixed(2) },
    "export all (s)": { value: +exportSeconds.toFixed(2) },
    "run viewer query, mean (ms)": { value: +((viewSeconds / sample.length) * 1000).toFixed(2) },
    "run list for one scenario (ms)": { value: +(listSeconds * 1000).toFixed(2) },
  });
  await closeDatabase(db);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

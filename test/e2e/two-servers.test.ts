/**
 * Two app servers on one database (issue 34): two real server processes on one SQLite file, or
 * on one PostgreSQL database in the suite's PostgreSQL project, and 12 annotators over HTTP spread
 * over both, labelling a small study (k = 3) until nothing is left for anyone. Every acknowledged
 * label is stored, every item ends with exactly k counted labels (never more), no annotator
 * labels an item twice, and no request fails. Figures (submits/s, p95) belong to `bench:load`.
 */
import { join } from "node:path";
import { and, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema.ts";
import { LoadRecord, runAnnotatorClient } from "../../bench/load-clients.ts";
import { checkStored, LOAD_K, prepareLoadDatabase, type LoadFixture } from "../../bench/load-fixture.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { pgDatabase } from "../../harness/postgres.ts";
import { tempDir, testEngine } from "../../harness/temp-db.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { closeDatabase } from "../../app/server/db-transaction.server.ts";

const ANNOTATORS = 12;
const cleanups: (() => unknown)[] = [];
let fixture: LoadFixture;
let target: string;
let servers: AppServer[];

beforeAll(async () => {
  const tmp = tempDir("socrates-two-servers-");
  cleanups.push(tmp.cleanup);
  const dbPath = join(tmp.dir, "app.db");
  target = dbPath;
  const env: Record<string, string> = { SESSION_SECRET: "two-servers-shared-session-secret" };
  if (testEngine() === "postgres") {
    const database = await pgDatabase({ migrated: true });
    cleanups.push(database.drop);
    target = env.DATABASE_URL = database.url;
  }
  // Two trajectories: about 26 items × k = 3, few enough that the annotators contend for the last places.
  fixture = await prepareLoadDatabase(target, { annotators: ANNOTATORS, trajectories: 2, conditions: 1 });
  servers = await Promise.all([0, 1].map(() => startAppServer({ dbPath, env })));
  cleanups.push(...servers.map((s) => () => s.stop()));
}, 120_000);

afterAll(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe(`two app servers on one ${testEngine() === "postgres" ? "PostgreSQL database" : "SQLite file"}`, () => {
  it("fill every item to exactly k, with every acknowledged label stored", { timeout: 180_000 }, async () => {
    const records = [new LoadRecord(), new LoadRecord()];
    let stopped = false;
    const cap = setTimeout(() => (stopped = true), 120_000);
    const submitted = await Promise.all(
      fixture.accounts.map((account, i) =>
        runAnnotatorClient({
          baseUrl: servers[i % 2].url,
          studyId: fixture.studyId,
          account,
          label: fixture.label,
          stop: () => stopped,
          draftEvery: 3,
          record: records[i % 2],
          // On each server, some as without JavaScript and some as the browser (whose submit carries the next page).
          mode: Math.floor(i / 2) % 2 === 0 ? "document" : "browser",
        }),
      ),
    );
    clearTimeout(cap);

    expect(records.flatMap((r) => r.failures)).toEqual([]);
    expect(records.flatMap((r) => r.samples.filter((s) => !s.ok))).toEqual([]);
    // Both servers took part.
    expect(records.map((r) => r.acknowledged.length > 0)).toEqual([true, true]);
    expect(stopped, "the annotators ran out of time before the study was full").toBe(false);
    const stored = await checkStored(target, fixture.studyId, [...records[0].acknowledged, ...records[1].acknowledged]);
    expect(stored).toEqual({ acknowledged: fixture.items * LOAD_K, missing: [], overK: 0 });
    expect(submitted.reduce((a, b) => a + b, 0)).toBe(fixture.items * LOAD_K);

    const db = await openDatabase(target);
    try {
      const perAnnotatorItem = await db
        .select({ n: count() })
        .from(schema.labels)
        .innerJoin(schema.studyItems, eq(schema.studyItems.id, schema.labels.studyItemId))
        .where(and(eq(schema.studyItems.studyId, fixture.studyId), eq(schema.labels.status, "counted")))
        .groupBy(schema.labels.studyItemId, schema.labels.annotatorId);
      expect(perAnnotatorItem.filter((r) => r.n > 1)).toEqual([]);
    } finally {
      await closeDatabase(db);
    }
  });
});

/**
 * Work that `transact` runs again on PostgreSQL after a serialization failure (forced here by
 * ./serialization-fault.ts) ends as if it had run once: what it returns counts its last run only,
 * and what it leaves outside the database (a limiter's count) is taken once. On SQLite, where work
 * runs once, the same checks hold with no failure raised.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as schema from "../../../db/schema.ts";
import { syntheticBundle } from "../../../bench/synthetic-bundle.ts";
import { importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import { databaseSessionStorage } from "../../../app/server/auth/session-store.server.ts";
import { CrowdEntryLimiter, limitedEntry } from "../../../app/server/crowd/entry-limiter.server.ts";
import { findOrCreateCrowdWorker } from "../../../app/server/crowd/workers.server.ts";
import { transact } from "../../../app/server/db-transaction.server.ts";
import { insertAnnotator } from "../../../app/server/models/annotator.server.ts";
import { storeJudgments } from "../../../app/server/pipeline/evaluate-mi.server.ts";
import { tableCounts, tempDb, testEngine, type TempDb } from "../../../harness/temp-db.ts";
import { failInserts } from "./serialization-fault.ts";

/** One forced failure on PostgreSQL, none on SQLite. */
const RETRIES = testEngine() === "postgres" ? 1 : 0;

/** A scenario with its conditions and `runs` of their runs (a whole synthetic bundle takes seconds on PostgreSQL). */
function smallBundle(prefix: string, runs: number) {
  const bundle = syntheticBundle(1, prefix);
  return {
    ...bundle,
    conditions: bundle.conditions ?? [],
    runs: (bundle.runs ?? []).slice(0, runs),
    matched_pairs: [],
    evaluations: [],
  };
}

describe(`work run again after a serialization failure (${testEngine()})`, () => {
  let t: TempDb;
  beforeEach(async () => {
    t = await tempDb();
  });
  afterEach(() => t.cleanup());

  it("a bundle import counts each record once", async () => {
    const bundle = smallBundle("retry", 3);
    const fault = await failInserts(t.db, schema.runs);
    const summary = await importBundleFiles(t.db, [{ file: "retry.json", text: JSON.stringify(bundle) }]);
    expect(await fault.raised()).toBe(RETRIES);
    expect(summary.inserted).toMatchObject({
      scenarios: 1,
      conditions: bundle.conditions.length,
      runs: bundle.runs.length,
    });
    expect(Object.values(summary.unchanged).every((n) => n === 0)).toBe(true);
    const counts = await tableCounts(t.db);
    expect([counts.runs, counts.conditions].map(Number)).toEqual([bundle.runs.length, bundle.conditions.length]);
  });

  it("stored MI judgments are counted once", async () => {
    const bundle = smallBundle("mi", 1);
    await importBundleFiles(t.db, [{ file: "mi.json", text: JSON.stringify(bundle) }]);
    const fault = await failInserts(t.db, schema.interventionJudgments);
    const reply = {
      perception_alignment: 1,
      emotional_dynamics: 1,
      cognitive_challenges: 1,
      communication_breakdowns: 1,
      reason: "r",
    };
    const judgments = [1, 2].map((turnId) => ({ turnId, reply }));
    const runId = bundle.runs[0].id;
    expect(await storeJudgments(t.db, runId, { backbone: "judge", judgments, failures: [] })).toBe(2);
    expect(await fault.raised()).toBe(RETRIES);
    expect(Number((await tableCounts(t.db)).intervention_judgments)).toBe(2);
  });

  it("a new session is stored once and its cookie signs in", async () => {
    const annotatorId = await transact(
      t.db,
      async (db) => await insertAnnotator(db, { username: "ann", displayName: "Ann", role: "expert" }),
    );
    const storage = databaseSessionStorage(async () => t.db, "a test secret");
    const session = await storage.getSession();
    session.set("annotatorId", annotatorId);
    const fault = await failInserts(t.db, schema.sessions);
    const cookie = await storage.commitSession(session);
    expect(await fault.raised()).toBe(RETRIES);
    expect(Number((await tableCounts(t.db)).sessions)).toBe(1);
    expect((await storage.readSignedIn(cookie))?.annotator.id).toBe(annotatorId);
  });

  it("a crowd entry that creates a worker is counted against its network once", async () => {
    const limiter = new CrowdEntryLimiter({
      perNetwork: { max: 2, windowSeconds: 3600 },
      perStudy: { max: 100, windowSeconds: 3600 },
    });
    // As crowd.start's action: one tally per request, made outside the transaction.
    const enter = (workerId: string) => {
      const tally = { counted: false };
      return transact(t.db, (db) =>
        limitedEntry(
          limiter,
          1,
          "net",
          async () => ({ value: await findOrCreateCrowdWorker(db, "link", workerId), created: true }),
          tally,
        ),
      );
    };
    const fault = await failInserts(t.db, schema.annotators);
    await enter("W1");
    expect(await fault.raised()).toBe(RETRIES);
    expect(limiter.retryAfter(1, "net")).toBe(0); // one of two
    await enter("W2");
    expect(limiter.retryAfter(1, "net")).toBeGreaterThan(0);
  });
});

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type BundleImportError, exportBundle, importBundleFiles } from "../../app/server/bundle-store.server.ts";
import { fixtureBundle } from "../fixtures/bundle-fixture.ts";
import { tableCounts, tempDb, testEngine } from "../../harness/temp-db.ts";
import { rawRows } from "../../app/server/db.server.ts";
import { sql } from "drizzle-orm";

const asFile = (value: unknown, file = "bundle.json") => [{ file, text: JSON.stringify(value) }];

describe("bundle import and export", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  beforeEach(async () => {
    t = await tempDb();
  });
  afterEach(() => t.cleanup());

  it.skipIf(testEngine() === "postgres")("opens the database with WAL and foreign keys", () => {
    expect(t.db.$client.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(t.db.$client.pragma("foreign_keys", { simple: true })).toBe(1);
    expect(t.db.$client.pragma("busy_timeout", { simple: true })).toBe(5000);
  });

  it("imports every record, derives snippets and per-turn scores, and a second import changes nothing", async () => {
    const first = await importBundleFiles(t.db, asFile(fixtureBundle()));
    expect(first.inserted).toEqual({
      scenarios: 1,
      conditions: 1,
      runs: 2,
      matched_pairs: 1,
      ab_pairs: 0,
      evaluations: 2,
    });
    const counts = await tableCounts(t.db);
    expect(counts.turns).toBe(11);
    expect(counts.snippets).toBe(3 + 2); // mediated: [1-3] [4-5] [6-7]; unmediated: [1-2] [3-4]
    // Two topics × (T + 1 = 8) turns, for each of the two evaluations.
    expect(counts.evaluation_scores).toBe(2 * 2 * 8);

    const second = await importBundleFiles(t.db, asFile(fixtureBundle()));
    expect(second.inserted).toEqual({
      scenarios: 0,
      conditions: 0,
      runs: 0,
      matched_pairs: 0,
      ab_pairs: 0,
      evaluations: 0,
    });
    expect(second.unchanged).toEqual({
      scenarios: 1,
      conditions: 1,
      runs: 2,
      matched_pairs: 1,
      ab_pairs: 0,
      evaluations: 2,
    });
    expect(await tableCounts(t.db)).toEqual(counts);
  });

  it("stores the carried-forward scores of a topic-localized evaluation", async () => {
    await importBundleFiles(t.db, asFile(fixtureBundle()));
    const rows = await rawRows<{ turn_id: number; score: number; located: number | boolean }>(
      t.db,
      sql`SELECT turn_id, score, located FROM evaluation_scores
          WHERE evaluation_id = ${"fx-1:med:topic"} AND topic_id = 'PRICE' ORDER BY turn_id`,
    );
    expect(rows.map((r) => r.score)).toEqual([1, 2, 2, 2, 4, 4, 4, 4]);
    expect(rows.filter((r) => r.located).map((r) => r.turn_id)).toEqual([1, 4]);
  });

  it("refuses a record whose id is already stored with different content, changing nothing", async () => {
    await importBundleFiles(t.db, asFile(fixtureBundle()));
    const before = await tableCounts(t.db);
    const changed = fixtureBundle();
    changed.scenarios[0].title = "A different title";
    await expect(importBundleFiles(t.db, asFile(changed, "edited.json"))).rejects.toThrowError(
      /edited\.json: \$\.scenarios\[0\]: "fx-1" is already stored with different content/,
    );
    expect(await tableCounts(t.db)).toEqual(before);
    expect((await exportBundle(t.db)).scenarios[0].title).toBe("Fixture sale");
  });

  it("writes nothing on a dry run", async () => {
    const summary = await importBundleFiles(t.db, asFile(fixtureBundle()), { dryRun: true });
    expect(summary.inserted.runs).toBe(2);
    expect((await tableCounts(t.db)).runs).toBe(0);
  });

  it("accepts records spread across files and refuses the same id with different content in two files", async () => {
    const whole = fixtureBundle();
    const scenarioFile = {
      format: "socrates-bundle",
      version: 1,
      scenarios: whole.scenarios,
      conditions: whole.conditions,
    };
    const runFile = {
      format: "socrates-bundle",
      version: 1,
      runs: whole.runs,
      matched_pairs: whole.matched_pairs,
      evaluations: whole.evaluations,
    };
    // Runs come first in file order: references are resolved across files.
    const summary = await importBundleFiles(
      t.db,
      [...asFile(runFile, "runs.json"), ...asFile(scenarioFile, "scenarios.json")],
      { dryRun: true },
    );
    expect(summary.inserted.evaluations).toBe(2);

    const clash = { ...scenarioFile, scenarios: [{ ...whole.scenarios[0], title: "Other" }] };
    try {
      await importBundleFiles(t.db, [...asFile(scenarioFile, "a.json"), ...asFile(clash, "b.json")]);
      expect.unreachable();
    } catch (err) {
      expect((err as BundleImportError).problems).toEqual([
        {
          file: "b.json",
          path: "$.scenarios[0]",
          message: '"fx-1" differs from the record with the same id in a.json',
        },
      ]);
    }
    expect((await tableCounts(t.db)).scenarios).toBe(0);
  });

  it("export → import into an empty database → export gives identical JSON", async () => {
    await importBundleFiles(t.db, asFile(fixtureBundle()));
    const firstExport = JSON.stringify(await exportBundle(t.db), null, 2);
    const other = await tempDb();
    try {
      await importBundleFiles(other.db, [{ file: "export.json", text: firstExport }]);
      expect(JSON.stringify(await exportBundle(other.db), null, 2)).toBe(firstExport);
    } finally {
      await other.cleanup();
    }
  });
});

describe("the demo study", () => {
  it("seeds idempotently and survives export → import → export unchanged", async () => {
    const { seedDemo } = await import("../../demo/seed.ts");
    const a = await tempDb();
    const b = await tempDb();
    try {
      const first = await seedDemo(a.db);
      // 8 runs in matched pairs, plus 32 short runs of 15 fidelity conditions in 16 A/B reactiveness pairs;
      // 4 general conditions, 56 probe conditions and the 15 fidelity ones.
      expect(first.inserted).toEqual({
        scenarios: 4,
        conditions: 75,
        runs: 40,
        matched_pairs: 4,
        ab_pairs: 16,
        evaluations: 16,
      });
      expect(new Set((await exportBundle(a.db)).scenarios.map((s) => s.domain)).size).toBeGreaterThanOrEqual(4);
      expect((await seedDemo(a.db)).inserted.runs).toBe(0);
      const exported = JSON.stringify(await exportBundle(a.db), null, 2);
      await importBundleFiles(b.db, [{ file: "demo-export.json", text: exported }]);
      expect(JSON.stringify(await exportBundle(b.db), null, 2)).toBe(exported);
    } finally {
      await a.cleanup();
      await b.cleanup();
    }
  });

  it("has believable runs: 16–30 turns, private thoughts on every party turn, a three-party scenario", async () => {
    const { seedDemo } = await import("../../demo/seed.ts");
    const t = await tempDb();
    try {
      await seedDemo(t.db);
      const bundle = await exportBundle(t.db);
      // The mediated/unmediated study; the short A/B reactiveness runs are checked in ab-pairs-import.test.ts.
      const paired = new Set(bundle.matched_pairs.flatMap((p) => [p.mediated_run_id, p.unmediated_run_id]));
      expect(paired.size).toBe(8);
      for (const run of bundle.runs.filter((r) => paired.has(r.id))) {
        expect(run.turns.length, run.id).toBeGreaterThanOrEqual(16);
        expect(run.turns.length, run.id).toBeLessThanOrEqual(30);
        expect(
          run.turns.filter((turn) => turn.role === "party").every((turn) => turn.thought),
          run.id,
        ).toBe(true);
        expect(
          run.turns.some((turn) => turn.role === "mediator"),
          run.id,
        ).toBe(run.mediated);
      }
      expect(bundle.scenarios.some((s) => s.parties.length === 3)).toBe(true);
      expect(bundle.scenarios.every((s) => s.source.kind === "demo")).toBe(true);
    } finally {
      await t.cleanup();
    }
  });
});

describe("run outcomes follow the signals", () => {
  it("refuses an impasse without a walk-away and a resolution someone never agreed to", async () => {
    const { runSchema } = await import("../../app/domain/bundle.ts");
    const [mediated, unmediated] = fixtureBundle().runs;
    const noWalkAway = { ...unmediated, turns: unmediated.turns.map((t) => ({ ...t, signal: "continue" as const })) };
    expect(runSchema.safeParse(noWalkAway).error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["outcome", 'an "impasse" run has a party turn with signal "walk-away"'],
    ]);
    const halfAgreed = {
      ...mediated,
      outcome: "resolved" as const,
      turns: mediated.turns.map((t, i) => (i === 6 ? { ...t, signal: "consensus" as const } : t)),
    };
    expect(runSchema.safeParse(halfAgreed).error?.issues.map((i) => i.message)).toEqual([
      'a "resolved" run needs every party to signal "consensus"; BUY never did',
    ]);
  });
});

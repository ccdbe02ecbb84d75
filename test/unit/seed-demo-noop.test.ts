/**
 * `socrates seed-demo` on a database that is already seeded changes nothing: no row added,
 * removed or rewritten (metric rows keep their computed_at, the demo plan its last_run_at),
 * whether the first seeding was `seed-demo` itself or the web server's first start.
 */
import { describe, expect, it } from "vitest";
import { computeMetrics } from "../../app/server/pipeline/metrics-runner.server.ts";
import { seedDemoBenchmark } from "../../demo/benchmark/seed.ts";
import { seedDemo } from "../../demo/seed.ts";
import { seedDemoStudies } from "../../demo/studies.ts";
import { runCli } from "../helpers/cli.ts";
import { tableDigests } from "../helpers/db-digest.ts";
import { tableCounts, tempDb } from "../../harness/temp-db.ts";

function seedOnce(path: string) {
  const first = runCli(["seed-demo"], { SOCRATES_DB: path });
  expect(first.status, first.stderr).toBe(0);
  expect(first.stdout).toMatch(/metric values computed/);
  return first;
}

describe("seed-demo on a seeded database", () => {
  it("is a no-op after seed-demo: same row counts and the same content digest of every table", {
    timeout: 120_000,
  }, async () => {
    const t = await tempDb();
    try {
      seedOnce(t.path);
      const counts = await tableCounts(t.db);
      const digests = tableDigests(t.db);
      expect(counts.metric_values).toBeGreaterThan(0);
      const again = runCli(["seed-demo"], { SOCRATES_DB: t.path });
      expect(again.status, again.stderr).toBe(0);
      expect(again.stdout).toContain("imported nothing");
      expect(again.stdout).toContain("nothing recomputed");
      expect(await tableCounts(t.db)).toEqual(counts);
      expect(tableDigests(t.db)).toEqual(digests);
    } finally {
      await t.cleanup();
    }
  });

  it("is a no-op after the web server's first-start seeding (demo, its metrics, the studies, the benchmark)", {
    timeout: 120_000,
  }, async () => {
    const t = await tempDb();
    try {
      // What scripts/serve.ts does on an empty database.
      await seedDemo(t.db);
      await computeMetrics(t.db);
      await seedDemoStudies(t.db);
      await seedDemoBenchmark(t.db);
      const counts = await tableCounts(t.db);
      const digests = tableDigests(t.db);
      expect(counts.studies).toBeGreaterThan(0);
      const again = runCli(["seed-demo"], { SOCRATES_DB: t.path });
      expect(again.status, again.stderr).toBe(0);
      expect(await tableCounts(t.db)).toEqual(counts);
      expect(tableDigests(t.db)).toEqual(digests);
    } finally {
      await t.cleanup();
    }
  });
});

/**
 * The demo benchmark (demo/benchmark): stand-in output that says so, exactly what its
 * recording script writes, and seeded with its plan and the metrics of every run and pair of its
 * grid — idempotently, since `npm start` and `socrates seed-demo` may seed it again.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { benchmarkPlans } from "../../app/server/benchmark/page.server.ts";
import { planGrid } from "../../app/server/benchmark/plan-file.server.ts";
import { seedDemoBenchmark, DEMO_BENCHMARK_BUNDLE, DEMO_PLAN_SOURCE, loadDemoPlan } from "../../demo/benchmark/seed.ts";
import { seedDemo } from "../../demo/seed.ts";
import { tableDigests } from "../helpers/db-digest.ts";
import { tableCounts, tempDb } from "../../harness/temp-db.ts";

const metricRowsOf = (db: Awaited<ReturnType<typeof tempDb>>["db"], kind: "run" | "pair", id: string) =>
  (
    db.$client
      .prepare("SELECT count(*) AS n FROM metric_values WHERE subject_kind = ? AND subject_id = ?")
      .get(kind, id) as { n: number }
  ).n;

describe("the demo benchmark", () => {
  it("names only demo- backbones and is stand-in output that says so", () => {
    const { plan } = loadDemoPlan();
    const models = [
      ...plan.mediators.map((m) => m.model),
      plan.simulator.model,
      plan.evaluator.model,
      ...plan.ablations.evaluators.map((e) => e.model),
    ];
    for (const model of models) expect(model).toMatch(/^demo-/);
    const file = JSON.parse(readFileSync(DEMO_BENCHMARK_BUNDLE, "utf8"));
    expect(file.description).toMatch(/offline stand-in endpoint \(canned, deterministic replies, not a model\)/);
    expect(file.scenarios ?? []).toEqual([]);
    expect(file.conditions ?? []).toEqual([]);
  });

  it("is exactly what its recording script writes", { timeout: 120_000 }, async () => {
    const { demoBenchmarkText, recordDemoBenchmark } = await import("../../demo/authoring/record-benchmark.ts");
    expect(demoBenchmarkText(await recordDemoBenchmark())).toBe(readFileSync(DEMO_BENCHMARK_BUNDLE, "utf8"));
  });

  it("seeds its plan, its whole grid and the metrics of every mediated run and pair, and seeding again changes nothing", async () => {
    const t = await tempDb();
    try {
      await seedDemo(t.db);
      const first = await seedDemoBenchmark(t.db);
      const [listed] = await benchmarkPlans(t.db);
      expect(listed).toMatchObject({ hash: first.plan.hash, source: DEMO_PLAN_SOURCE, mediators: 3 });
      expect(listed.storedRuns).toBe(listed.plannedRuns);
      expect(first.imported.inserted).toMatchObject({ runs: listed.plannedRuns, matched_pairs: 96, evaluations: 224 });

      const units = (await planGrid(t.db, first.plan.plan)).units;
      for (const { runId, pairId } of units.flatMap((u) => u.mediated)) {
        expect(metricRowsOf(t.db, "run", runId), runId).toBeGreaterThan(0);
        expect(metricRowsOf(t.db, "pair", pairId), pairId).toBeGreaterThan(0);
      }
      // Unmediated runs: the emotion metrics every run has (the parties self-report), no mediator metric.
      const metricsOf = (runId: string) =>
        (
          t.db.$client
            .prepare("SELECT DISTINCT metric FROM metric_values WHERE subject_id = ? ORDER BY metric")
            .all(runId) as { metric: string }[]
        ).map((r) => r.metric);
      for (const unit of units) expect(metricsOf(unit.unmediatedRunId)).toEqual(["EC", "EF", "EV"]);
      for (const { runId } of units.flatMap((u) => u.mediated)) expect(metricsOf(runId)).toContain("ER");

      const counts = await tableCounts(t.db);
      const digests = tableDigests(t.db);
      const again = await seedDemoBenchmark(t.db);
      expect(Object.values(again.imported.inserted).every((n) => n === 0)).toBe(true);
      expect(first.metricRows).toBeGreaterThan(0);
      expect(again.metricRows).toBe(0);
      expect(await tableCounts(t.db)).toEqual(counts);
      expect(tableDigests(t.db)).toEqual(digests);
    } finally {
      await t.cleanup();
    }
  });
});

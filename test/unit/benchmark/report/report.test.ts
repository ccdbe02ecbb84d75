import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../../../db/schema.ts";
import { DOMAINS } from "../../../../app/domain/bundle.ts";
import { planGrid } from "../../../../app/server/benchmark/plan-file.server.ts";
import { buildBenchmarkReport } from "../../../../app/server/benchmark/report.server.ts";
import type { Db } from "../../../../app/server/db.server.ts";
import { evaluationId } from "../../../../app/domain/evaluation-ids.ts";
import { computeMetrics } from "../../../../app/server/pipeline/metrics-runner.server.ts";
import { databasePerTest } from "../../pipeline/test-db.ts";
import { fixturePlan, MAIN_JUDGE, seedGrid } from "./fixture.ts";
import { expectTables3And7MatchStoredRows, reportCell } from "./recompute.ts";

const freshDb = databasePerTest();

const loaded = fixturePlan();

/** The run skipped from the grid (never simulated): it must not enter any cell. */
async function skippedRun(db: Db): Promise<string> {
  return (await planGrid(db, loaded.plan)).units.find(
    (u) => u.domain === "healthcare" && u.conditionKey === "emotion:CR" && u.part === "main",
  )!.mediated[1].runId;
}

async function seeded(): Promise<{ db: Db; skipped: string }> {
  const db = await freshDb();
  // The grid needs the catalogue to name the skipped run: seed a throwaway copy first.
  const probe = await freshDb();
  await seedGrid(probe, loaded);
  const skipped = await skippedRun(probe);
  await seedGrid(db, loaded, new Set([skipped]));
  return { db, skipped };
}

const cell = reportCell;

describe("benchmark report", () => {
  it("Tables 3 and 7 equal a recomputation from the stored metric rows; counts are the runs that entered", async () => {
    const { db, skipped } = await seeded();
    const report = await buildBenchmarkReport(db, loaded, { now: new Date("2026-01-02T00:00:00Z") });
    const table3 = report.tables.find((t) => t.id === "table3")!;
    const units = (await planGrid(db, loaded.plan)).units.filter((u) => u.part === "main");
    expect(DOMAINS.filter((d) => units.some((u) => u.domain === d))).toEqual(["transactional", "healthcare"]);
    const nonNull = await expectTables3And7MatchStoredRows(db, loaded, report, new Set([skipped]));
    expect(nonNull).toBeGreaterThan(0);
    // beta lost one healthcare run: 2 scenarios × 3 conditions × 2 runs − 1.
    const betaRuns = cell(table3, "beta", "IE|avg");
    expect(betaRuns.n + betaRuns.missing).toBe(11);
    expect(report.coverage.plannedRuns).toBe(
      (await planGrid(db, loaded.plan)).units.reduce((s, u) => s + 1 + u.mediated.length, 0),
    );
    expect(report.coverage.storedRuns).toBe(report.coverage.plannedRuns - 1);
    expect(report.constants.params).toMatchObject({ s0: 1, h: 5, delta: 0.05, W: 10 });
    expect(report.warnings.some((w) => w.includes("Figure 6"))).toBe(true);
    expect(report.warnings.some((w) => /different values/.test(w))).toBe(false);
  });

  it("bootstrap CIs resample scenarios reproducibly and contain the mean", async () => {
    const { db } = await seeded();
    const a = await buildBenchmarkReport(db, loaded);
    const b = await buildBenchmarkReport(db, loaded);
    const cellA = cell(a.tables[0], "alpha", "CG|avg");
    expect(cellA.ci).not.toBeNull();
    expect(cellA.ci).toEqual(cell(b.tables[0], "alpha", "CG|avg").ci);
    expect(cellA.ci![0]).toBeLessThanOrEqual(cellA.mean!);
    expect(cellA.ci![1]).toBeGreaterThanOrEqual(cellA.mean!);
    // One scenario per domain column: no interval.
    expect(cell(a.tables[0], "alpha", "CG|healthcare").ci).toBeNull();
    const other = await buildBenchmarkReport(db, loaded, { bootstrap: { seed: 99 } });
    expect(cell(other.tables[0], "alpha", "CG|avg").mean).toBe(cellA.mean);
  });

  it("a run whose judge output was incomplete (null value, detail.incomplete) counts as missing and in coverage", async () => {
    const { db } = await seeded();
    const before = await buildBenchmarkReport(db, loaded);
    const alpha = cell(before.tables[0], "alpha", "IE|avg");
    const runId = alpha.runIds[0];
    const id = evaluationId(runId, "topic-localized", MAIN_JUDGE);
    await db
      .update(schema.metricValues)
      .set({ value: null, detail: { incomplete: true, failedTopics: ["PRICE"] } })
      .where(
        and(
          eq(schema.metricValues.subjectId, runId),
          eq(schema.metricValues.evaluationId, id),
          eq(schema.metricValues.metric, "IE"),
        ),
      );
    const after = await buildBenchmarkReport(db, loaded);
    const changed = cell(after.tables[0], "alpha", "IE|avg");
    expect(changed.n).toBe(alpha.n - 1);
    expect(changed.missing).toBe(alpha.missing + 1);
    expect(changed.missingRunIds).toContain(runId);
    expect(after.coverage.incompleteRuns).toBe(before.coverage.incompleteRuns + 1);
  });

  it("never serves a row computed with other parameters than the plan's: the run drops out and a warning names the row and the command", async () => {
    const { db } = await seeded();
    const before = cell((await buildBenchmarkReport(db, loaded)).tables[0], "alpha", "IE|avg").runIds;
    const one = before[0];
    await computeMetrics(db, { runId: one, params: { h: 3 } });
    const report = await buildBenchmarkReport(db, loaded);
    expect(cell(report.tables[0], "alpha", "IE|avg").runIds).toEqual(before.filter((id) => id !== one));
    expect(report.warnings).toContainEqual(
      expect.stringMatching(
        /^\d+ stored metric rows of the plan's runs were computed with other parameters than the plan's \(e\.g\. \w+ of .+ with \{[^}]*"h":3\}\).*socrates benchmark run --plan/,
      ),
    );
    // Only the plan's parameters are on the rows used.
    expect(report.constants.params.h).toBe(5);
  });
});

/**
 * The Benchmark page's data on a real database: the plan list with its stored share, the runs
 * behind a cell (exactly the cell's runIds), and clear 404s for an unknown hash, an unknown cell,
 * and a recorded plan with no stored run yet.
 */
import { describe, expect, it } from "vitest";
import { benchmarkPage, benchmarkPlans, cellRunIds } from "../../../app/server/benchmark/page.server.ts";
import { buildBenchmarkReport } from "../../../app/server/benchmark/report.server.ts";
import { ServiceError } from "../../../app/server/http/errors.server.ts";
import { touchBenchmarkPlan } from "../../../app/server/models/benchmark-plan.server.ts";
import type { Db } from "../../../app/server/db.server.ts";
import { databasePerTest } from "../pipeline/test-db.ts";
import { fixturePlan, seedGrid } from "./report/fixture.ts";
import { reportCell } from "./report/recompute.ts";

const freshDb = databasePerTest();

const loaded = fixturePlan();
const record = (db: Db) =>
  touchBenchmarkPlan(db, { hash: loaded.hash, name: loaded.plan.name, plan: loaded.plan, source: "plan.json" });

async function status(fn: () => Promise<unknown>): Promise<number | undefined> {
  try {
    await fn();
  } catch (err) {
    return err instanceof ServiceError ? err.status : undefined;
  }
  return 200;
}

describe("the Benchmark page's data", () => {
  it("lists a plan with its stored runs and gives each cell exactly the runs that entered it", async () => {
    const db = await freshDb();
    await seedGrid(db, loaded);
    await record(db);
    const [plan] = await benchmarkPlans(db);
    expect(plan).toMatchObject({ hash: loaded.hash, name: "report-test", mediators: 3 });
    expect(plan.storedRuns).toBe(plan.plannedRuns);

    const report = await buildBenchmarkReport(db, loaded);
    const expected = reportCell(report.tables.find((t) => t.id === "table3")!, "alpha", "CG|healthcare");
    const found = await cellRunIds(db, loaded.hash, { table: "table3", row: "alpha", column: "CG|healthcare" });
    expect(found.runIds).toEqual(expected.runIds);
    expect(found.runIds.length).toBe(expected.n);
    expect(found.label).toContain("alpha, CG healthcare");

    const page = await benchmarkPage(db, loaded.hash);
    expect(Object.keys(page.charts).sort()).toEqual(page.report.figures.map((f) => f.id).sort());
    for (const chart of Object.values(page.charts)) {
      expect(chart.svg.startsWith("<svg")).toBe(true);
      expect(chart.narrowSvg.startsWith("<svg")).toBe(true);
      expect(chart.data.rows.length).toBeGreaterThan(0);
    }
  });

  it("answers 404 for an unknown plan or cell, and for a plan with no stored run yet", async () => {
    const db = await freshDb();
    expect(
      await status(() => cellRunIds(db, "000000000000", { table: "table3", row: "alpha", column: "CG|avg" })),
    ).toBe(404);
    await record(db);
    await expect(benchmarkPage(db, loaded.hash)).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining("run `socrates benchmark run"),
    });
    await seedGrid(db, loaded);
    expect(await status(() => cellRunIds(db, loaded.hash, { table: "table3", row: "nobody", column: "CG|avg" }))).toBe(
      404,
    );
  });
});

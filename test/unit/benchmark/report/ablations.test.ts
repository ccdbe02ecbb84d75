import { describe, expect, it } from "vitest";
import * as schema from "../../../../db/schema.ts";
import { isReportCell, type BenchmarkReport, type ReportTable } from "../../../../app/domain/benchmark/report-model.ts";
import { evaluationId } from "../../../../app/domain/evaluation-ids.ts";
import { NO_EMOTION_WARNING } from "../../../../app/domain/benchmark/report/emotion.ts";
import { planGrid, type LoadedPlan } from "../../../../app/server/benchmark/plan-file.server.ts";
import { buildBenchmarkReport } from "../../../../app/server/benchmark/report.server.ts";
import type { Db } from "../../../../app/server/db.server.ts";
import { databasePerTest } from "../../pipeline/test-db.ts";
import { ALT_JUDGE, fixturePlan, MAIN_JUDGE, seedGrid } from "./fixture.ts";
import { handKendallTauB, handSpearman, plainMean } from "./hand-stats.ts";

const freshDb = databasePerTest();

async function seeded(loaded: LoadedPlan): Promise<Db> {
  const db = await freshDb();
  await seedGrid(db, loaded);
  return db;
}

const MEDIATORS = ["alpha", "beta", "gamma"];
const withSimulator = fixturePlan({
  ablations: {
    evaluators: [{ model: ALT_JUDGE }],
    repeats: { runs: 3 },
    simulators: [{ model: "sim-alt", mediators: ["alpha", "beta"] }],
  },
});

/** Stored value of a run's (or pair's) metric, straight from metric_values. */
async function reader(db: Db) {
  const rows = await db.select().from(schema.metricValues);
  const byKey = new Map(rows.map((r) => [`${r.subjectId}|${r.evaluationId}|${r.metric}`, r]));
  return {
    value: (subject: string, evaluation: string, metric: string) =>
      byKey.get(`${subject}|${evaluation}|${metric}`)?.value ?? null,
    detail: (subject: string, evaluation: string, metric: string) =>
      byKey.get(`${subject}|${evaluation}|${metric}`)?.detail,
  };
}

/** The grid's mediated runs with their unit, filtered. */
async function gridRuns(
  db: Db,
  loaded: LoadedPlan,
  keep: (u: Awaited<ReturnType<typeof planGrid>>["units"][number]) => boolean,
) {
  return (await planGrid(db, loaded.plan)).units
    .filter(keep)
    .flatMap((u) => u.mediated.map((m) => ({ ...m, unit: u })));
}

async function metricValue(metric: string, db: Db, judge: string) {
  const r = await reader(db);
  return (run: { runId: string; pairId: string }) => {
    const id = evaluationId(run.runId, "topic-localized", judge);
    return metric === "CG" ? r.value(run.pairId, id, "CG") : r.value(run.runId, id, metric);
  };
}

/**
 * Checks a rank-agreement cell over three mediators by hand: of the 6 pairings of two rankings of
 * 3 without ties, the same order and its reverse are the only ones with |ρ| = |τ| = 1, so such a
 * value has exact two-sided p 2/6 and any other (|ρ| = 0.5, |τ| = 1/3) has p 1. With a tie the p
 * is the asymptotic one, so only the method is checked. Returns whether the cell was exact.
 */
function expectRankCell(
  cell: unknown,
  a: number[],
  b: number[],
  coefficient: (a: number[], b: number[]) => number,
): boolean {
  const { text } = cell as { text: string };
  if (new Set(a).size < 3 || new Set(b).size < 3) {
    expect(text).toMatch(/, asymptotic\)$/);
    return false;
  }
  const r = coefficient(a, b);
  expect(text).toBe(`${r.toFixed(3)} (p ${Math.abs(r) > 0.99 ? "0.333" : "1.000"}, exact)`);
  return true;
}

const table = (report: BenchmarkReport, id: string): ReportTable => report.tables.find((t) => t.id === id)!;
const figureRows = (report: BenchmarkReport, id: string) =>
  (report.figures.find((f) => f.id === id)!.spec as { data: { values: Record<string, unknown>[] } }).data.values;

describe("benchmark report: ablations and figures", () => {
  it("Table 8 gives each evaluator's mean and the rank agreement of the mediator rankings, computed by hand", async () => {
    const db = await seeded(withSimulator);
    const report = await buildBenchmarkReport(db, withSimulator);
    const t8 = table(report, "table8");
    const main = await gridRuns(db, withSimulator, (u) => u.part === "main");
    let exactCells = 0;
    for (const metric of ["IT", "IE", "CG"]) {
      const scores = async (judge: string) =>
        await Promise.all(
          MEDIATORS.map(
            async (m) => plainMean(main.filter((r) => r.mediator === m).map(await metricValue(metric, db, judge)))!,
          ),
        );
      for (const judge of [MAIN_JUDGE, ALT_JUDGE]) {
        const c = t8.rows.find((r) => r.key === judge)!.cells[metric];
        expect(isReportCell(c) && c.mean).toBeCloseTo(plainMean(main.map(await metricValue(metric, db, judge)))!, 12);
      }
      const rho = t8.rows.find((r) => r.key === `spearman|${ALT_JUDGE}`)!.cells[metric];
      const tau = t8.rows.find((r) => r.key === `kendall|${ALT_JUDGE}`)!.cells[metric];
      expect(!isReportCell(rho) && rho.value).toBeCloseTo(
        handSpearman(await scores(MAIN_JUDGE), await scores(ALT_JUDGE)),
        12,
      );
      expect(!isReportCell(tau) && tau.value).toBeCloseTo(
        handKendallTauB(await scores(MAIN_JUDGE), await scores(ALT_JUDGE)),
        12,
      );
      expect(!isReportCell(rho) && rho.text).toMatch(/^-?\d\.\d{3} \(p (<0\.001|[01]\.\d{3}), (exact|asymptotic)\)$/);
      if (expectRankCell(rho, await scores(MAIN_JUDGE), await scores(ALT_JUDGE), handSpearman)) exactCells++;
      if (expectRankCell(tau, await scores(MAIN_JUDGE), await scores(ALT_JUDGE), handKendallTauB)) exactCells++;
    }
    expect(exactCells).toBeGreaterThan(0); // the fixture's three mediators score without ties somewhere
  });

  it("Table 9 gives the median ± half-range of the per-run means and Kendall τ-b between runs", async () => {
    const db = await seeded(withSimulator);
    const t9 = table(await buildBenchmarkReport(db, withSimulator), "table9");
    const general = await gridRuns(
      db,
      withSimulator,
      (u) => u.conditionKey === "general" && u.simulator.model === "sim-main",
    );
    for (const metric of ["IT", "IE", "CG"]) {
      const perRun = async (m: string) =>
        await Promise.all(
          [0, 1, 2].map(
            async (i) =>
              plainMean(
                general
                  .filter((r) => r.mediator === m && r.unit.runIndex === i)
                  .map(await metricValue(metric, db, MAIN_JUDGE)),
              )!,
          ),
        );
      for (const m of MEDIATORS) {
        const sorted = [...(await perRun(m))].sort((a, b) => a - b);
        const cell = t9.rows.find((r) => r.key === m)!.cells[metric];
        expect(!isReportCell(cell) && cell.value).toBeCloseTo(sorted[1], 12);
        expect(!isReportCell(cell) && cell.text).toBe(
          `${(sorted[1] * 100).toFixed(1)} ± ${(((sorted[2] - sorted[0]) / 2) * 100).toFixed(1)}`,
        );
      }
      const taus: number[] = [];
      for (const [i, j] of [
        [0, 1],
        [0, 2],
        [1, 2],
      ]) {
        const expected = handKendallTauB(
          await Promise.all(MEDIATORS.map(async (m) => (await perRun(m))[i])),
          await Promise.all(MEDIATORS.map(async (m) => (await perRun(m))[j])),
        );
        taus.push(expected);
        const cell = t9.rows.find((r) => r.key === `kendall|${i}|${j}`)!.cells[metric];
        expect(!isReportCell(cell) && cell.value).toBeCloseTo(expected, 12);
        expectRankCell(
          cell,
          await Promise.all(MEDIATORS.map(async (m) => (await perRun(m))[i])),
          await Promise.all(MEDIATORS.map(async (m) => (await perRun(m))[j])),
          handKendallTauB,
        );
      }
      const mean = t9.rows.find((r) => r.key === "kendall|mean")!.cells[metric];
      expect(!isReportCell(mean) && mean.value).toBeCloseTo(taus.reduce((s, t) => s + t, 0) / 3, 12);
    }
  });

  it("Figures 2, 3, 4 and 6 carry the expected data rows", async () => {
    const db = await seeded(withSimulator);
    const report = await buildBenchmarkReport(db, withSimulator);
    const main = await gridRuns(db, withSimulator, (u) => u.part === "main");
    const cg = await metricValue("CG", db, MAIN_JUDGE);
    const cgMean = (runs: typeof main) => plainMean(runs.map(cg))!;
    const x100 = (v: number) => Math.round(v * 1e4) / 100;

    const fig2 = figureRows(report, "figure2");
    expect(fig2).toHaveLength(MEDIATORS.length * 3);
    for (const row of fig2) {
      const runs = main.filter((r) => r.mediator === row.mediator && r.unit.axis === row.axis);
      expect(row.cg).toBe(x100(cgMean(runs)));
      expect(row.n).toBe(runs.filter((r) => cg(r) !== null).length);
    }

    const fig3 = figureRows(report, "figure3");
    expect(fig3.map((r) => `${r.mediator}|${r.axis}|${r.variant}`).sort()).toEqual(
      MEDIATORS.flatMap((m) => [`${m}|emotion|CR`, `${m}|strategy|competing`]).sort(),
    );
    for (const row of fig3) {
      const own = main.filter((r) => r.mediator === row.mediator);
      const shift =
        cgMean(own.filter((r) => r.unit.conditionKey === `${row.axis}:${row.variant}`)) -
        cgMean(own.filter((r) => r.unit.axis === "general"));
      expect(row.shift).toBe(x100(shift));
    }

    const fig4 = figureRows(report, "figure4");
    expect(fig4).toHaveLength(3 * MEDIATORS.length * 5);
    const r = await reader(db);
    for (const row of fig4.filter((x) => x.count !== 0)) {
      const lifts = main
        .filter((run) => run.mediator === row.mediator && run.unit.axis === row.group)
        .flatMap(
          (run) =>
            (
              r.detail(run.runId, evaluationId(run.runId, "topic-localized", MAIN_JUDGE), "IE") as {
                perIntervention: { progress: number; ie: number }[];
              }
            ).perIntervention,
        )
        .filter((p) => Math.min(4, Math.floor(p.progress * 5 + 1e-9)) === row.bin_index);
      expect(row.count).toBe(lifts.length);
      expect(row.ie).toBe(x100(lifts.reduce((s, p) => s + p.ie, 0) / lifts.length));
    }

    const fig6 = figureRows(report, "figure6");
    expect(new Set(fig6.map((x) => x.simulator))).toEqual(new Set(["sim-main", "sim-alt"]));
    expect(fig6.filter((x) => x.simulator === "sim-alt")).toHaveLength(2 * 3);
    const alt = await gridRuns(db, withSimulator, (u) => u.part === "simulator");
    for (const row of fig6.filter((x) => x.simulator === "sim-alt")) {
      expect(row.cg).toBe(x100(cgMean(alt.filter((a) => a.mediator === row.mediator && a.unit.axis === row.axis))));
    }
    // The fixture's runs carry no emotion: the one warning says how to get the emotion tables.
    expect(report.warnings).toEqual([NO_EMOTION_WARNING]);
  });

  it("a plan without ablations gives warnings, not a crash, and leaves out Tables 8 and 9 and Figure 6", async () => {
    const plain = fixturePlan({ ablations: {} });
    const db = await seeded(plain);
    const report = await buildBenchmarkReport(db, plain);
    expect(report.tables.map((t) => t.id)).toEqual(["table3", "table5", "table7"]);
    expect(report.figures.map((f) => f.id)).toEqual(["figure2", "figure3", "figure4"]);
    expect(report.warnings.filter((w) => /^(Table 8|Table 9|Figure 6) omitted/.test(w))).toHaveLength(3);
  });
});

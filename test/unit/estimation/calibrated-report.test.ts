/**
 * Issue 33: the report's "Human-calibrated scores" from a plan that names an expert study (real
 * database): its rows are the service's overall estimates; it reaches report.md and its csv; the
 * Benchmark page's data carries it and the leaderboard shows the PPI++ column with its interval;
 * `report --verify` still finds every number identical; a report without studies has no such table.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { createElement } from "react";
import { StaticRouter } from "react-router-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BenchmarkReportView } from "../../../app/components/benchmark/BenchmarkReportView.tsx";
import type { BenchmarkReport, ReportText } from "../../../app/domain/benchmark/report-model.ts";
import { withInterval } from "../../../app/domain/estimation/calibrated-format.ts";
import { benchmarkPage } from "../../../app/server/benchmark/page.server.ts";
import type { LoadedPlan } from "../../../app/server/benchmark/plan-file.server.ts";
import { writeReportFiles } from "../../../app/server/benchmark/report-files.server.ts";
import { buildManifest, verifyReport, writeManifest } from "../../../app/server/benchmark/report-manifest.server.ts";
import { buildBenchmarkReport } from "../../../app/server/benchmark/report.server.ts";
import { calibratedEstimates } from "../../../app/server/estimation/calibrated.server.ts";
import { touchBenchmarkPlan } from "../../../app/server/models/benchmark-plan.server.ts";
import { tempDir } from "../../../harness/temp-db.ts";
import { fixturePlan } from "../benchmark/report/fixture.ts";
import { labelledPlanDb, type LabelledPlan } from "./fixture.ts";

let t: LabelledPlan;
let named: LoadedPlan;
let report: BenchmarkReport;
const cleanups: (() => void)[] = [];

beforeAll(async () => {
  t = await labelledPlanDb();
  cleanups.push(t.cleanup);
  // The same grid, its plan naming the expert study.
  named = fixturePlan({ studies: [t.studyId] });
  report = await buildBenchmarkReport(t.db, named, { now: new Date("2026-01-02T00:00:00Z") });
}, 120_000);
afterAll(() => {
  for (const c of cleanups.splice(0)) c();
});

const calibratedTable = (r: BenchmarkReport) => r.tables.find((x) => x.id === "human-calibrated");

describe("the Human-calibrated scores report part", () => {
  it("holds each mediator's overall judge-only, human-only and PPI++ estimates from the service", async () => {
    const table = calibratedTable(report)!;
    expect(table.title).toBe("Human-calibrated scores");
    const expected = await calibratedEstimates(t.db, { loaded: named, studyIds: [t.studyId] });
    const overall = expected.rows.filter((r) => r.domain === null);
    expect(table.rows).toHaveLength(overall.length);
    for (const r of overall) {
      const row = table.rows.find((x) => x.key === `${r.quantity}|${r.mediator ?? "no mediator"}`)!;
      const ppi = row.cells.ppi as ReportText;
      expect(ppi.value).toBe(r.ppi?.estimate ?? null);
      expect(ppi.text).toBe(withInterval(r.ppi));
      expect(ppi.ci).toEqual(r.ppi ? [r.ppi.lower, r.ppi.upper] : undefined);
      expect((row.cells.human as ReportText).value).toBe(r.humanOnly?.estimate ?? null);
      expect((row.cells.judge as ReportText).value).toBe(r.judgeOnly?.estimate ?? null);
      expect(row.cells.labelled).toEqual({ text: `${r.labelled} / ${r.runs}`, value: r.labelled });
    }
    expect(table.notes.join("\n")).toContain(`studies ${t.studyId}`);
    // Ordered after Table 3.
    const ids = report.tables.map((x) => x.id);
    expect(ids.indexOf("human-calibrated")).toBe(ids.indexOf("table3") + 1);
  });

  it("reaches report.md and its own csv, and report --verify finds every number identical", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const files = await writeReportFiles(report, dir, ["md", "csv"]);
    const md = readFileSync(join(dir, "report.md"), "utf8");
    expect(md).toContain("## Human-calibrated scores");
    const ppi = calibratedTable(report)!.rows.find((r) => (r.cells.ppi as ReportText).value !== null)!;
    expect(md).toContain((ppi.cells.ppi as ReportText).text);
    const csv = readFileSync(join(dir, "human-calibrated.csv"), "utf8");
    expect(csv).toContain(`human-calibrated,${ppi.label},PPI++ [CI],${(ppi.cells.ppi as ReportText).value}`);
    files.push(
      writeManifest(dir, await buildManifest(t.db, { loaded: named, report, configPath: join(dir, "none"), files })),
    );
    const verified = await verifyReport(t.db, dir);
    expect(verified.difference).toBeNull();
    expect(verified.manifest.numbers.some((n) => n.table === "human-calibrated")).toBe(true);
  });

  it("is on the Benchmark page's report, with a Human-calibrated leaderboard column", async () => {
    await touchBenchmarkPlan(t.db, { hash: named.hash, name: named.plan.name, plan: named.plan, source: "plan.json" });
    const page = await benchmarkPage(t.db, named.hash);
    expect(calibratedTable(page.report)).toEqual(calibratedTable(report));
    const html = renderToStaticMarkup(
      createElement(
        StaticRouter,
        { location: `/benchmark/${named.hash}` },
        createElement(BenchmarkReportView, { report: page.report, charts: {} }),
      ),
    );
    expect(html).toContain('data-testid="report-human-calibrated"');
    expect(html).toContain("Human-calibrated");
    const alpha = calibratedTable(report)!.rows.find((r) => r.key === "outcome|alpha")!.cells.ppi as ReportText;
    expect(alpha.ci).toBeDefined();
    const pct = (x: number) => (x * 100).toFixed(1);
    expect(html).toContain(
      `${pct(alpha.value!)}<small class="cell-ci" data-testid="leaderboard-ci"> [${pct(alpha.ci![0])}, ${pct(alpha.ci![1])}]`,
    );
  });

  it("is absent from a report that names no study", async () => {
    const without = await buildBenchmarkReport(t.db, t.loaded, { studies: false });
    expect(calibratedTable(without)).toBeUndefined();
  });
});

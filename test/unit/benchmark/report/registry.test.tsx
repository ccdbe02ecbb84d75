/**
 * The report-part registry (app/report-parts/registry.ts) drives every output: one file per part,
 * named by its id; every registered part reaches the Benchmark page (rendered to HTML) in report
 * order; and a part added to the registry reaches report.md, its csv, report.html and the page
 * with no other change (built from a real SQLite grid).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { BenchmarkReportView } from "../../../../app/components/benchmark/BenchmarkReportView.tsx";
import type { BenchmarkReport } from "../../../../app/domain/benchmark/report-model.ts";
import { buildReportParts } from "../../../../app/domain/benchmark/report/build.ts";
import { buildCell, DEFAULT_BOOTSTRAP } from "../../../../app/domain/benchmark/report/cells.ts";
import type { ReportSubject, RunPlace } from "../../../../app/domain/benchmark/report/input.ts";
import {
  inReportOrder,
  type ReportPart,
  type ReportPartInput,
  type TablePart,
} from "../../../../app/domain/benchmark/report/part.ts";
import { calibratedRows, DEFAULT_CALIBRATION } from "../../../../app/domain/estimation/calibrated.ts";
import { REPORT_PARTS } from "../../../../app/report-parts/registry.ts";
import { writeReportFiles } from "../../../../app/server/benchmark/report-files.server.ts";
import { buildBenchmarkReport } from "../../../../app/server/benchmark/report.server.ts";
import { tempDir } from "../../../../harness/temp-db.ts";
import { databasePerTest } from "../../pipeline/test-db.ts";
import { fixturePlan, seedGrid } from "./fixture.ts";

const ids = (parts: readonly Pick<ReportPart, "id">[]) => parts.map((p) => p.id);

/**
 * A plan's report input with every part's data: two judges, repeated runs, a simulator ablation,
 * emotion on the emotion axis, an A/B study with its proxy and an expert study.
 */
function fullInput(): ReportPartInput {
  const subjects: ReportSubject[] = [];
  const unmediated: RunPlace[] = [];
  let n = 0;
  const place = (scenarioId: string, conditionKey: string, simulator: string, runIndex: number): RunPlace => {
    const [axis, variant] = conditionKey === "general" ? ["general", "default"] : conditionKey.split(":");
    const part = simulator === "sim" ? "main" : "simulator";
    const v = (k: number) => ((n * 7 + k * 3) % 10) / 10;
    const emotion = { source: "self-report", ER: v(1), EF: v(2), EV: v(3), EC: v(4) - 0.5, interventions: [] };
    const runId = `r${++n}`;
    const domain = "transactional";
    return { runId, scenarioId, domain, conditionKey, axis, variant, part, simulator, runIndex, emotion };
  };
  for (const scenarioId of ["s1", "s2"]) {
    for (const conditionKey of ["general", "emotion:CC", "emotion:RR"]) {
      for (const runIndex of [0, 1]) {
        for (const [mediator, simulator] of [
          ["alpha", "sim"],
          ["beta", "sim"],
          ["alpha", "sim-b"],
        ]) {
          const at = place(scenarioId, conditionKey, simulator, runIndex);
          const scores = (shift: number) => ({
            IT: ((n + shift) % 5) / 5,
            IE: ((n * 3 + shift) % 7) / 7,
            CG: ((n * 2 + shift) % 9) / 9 - 0.3,
            interventions: [{ progress: ((n % 10) + 1) / 10, ie: (n % 4) / 4 }],
          });
          const judged = { judge: scores(0), "judge-b": scores(1) };
          const both = (k: number) => ({ spec: ((n + k) % 5) / 10, reference: ((n + 2 * k) % 7) / 10 - 0.2 });
          const definitions = { CC: both(1), TLE: both(2), RL: both(3), ME: both(4), MI: both(5) };
          subjects.push({ ...at, mediator, IF: (n % 6) / 6, FI: (n % 3) / 3, judged, definitions });
        }
        unmediated.push({ ...place(scenarioId, conditionKey, "sim", runIndex), emotion: null });
      }
    }
  }
  const line = (r: number) => ({ n: 4, r, p: 0.2 });
  const fidelity = { backbone: "sim", pairs: 4, correct: 3, noMajority: 1, fidelity: 0.75, labels: 12 };
  const judge = { label: "judge", backbone: "judge" };
  const alignment = { method: "evaluator" as const, ...judge, trajectory: line(0.6), outcome: line(0.5) };
  const measured = { measuredPairs: 3, ordered: 2, ties: 1, agreement: 2 / 3 };
  const proxy = { backbone: "sim", pairs: 4, ...measured, observations: 6, r: 0.8, p: 0.056 };
  return {
    planName: "full",
    planHash: "abc123",
    evaluators: ["judge", "judge-b"],
    simulator: "sim",
    ablationSimulators: [{ model: "sim-b", mediators: ["alpha"] }],
    mediators: [
      { name: "alpha", mode: "generic" },
      { name: "beta", mode: "social" },
    ],
    repeats: { runs: 2, conditionKeys: ["general"] },
    subjects,
    unmediated,
    conditions: {
      selected: ["general", "emotion:CC", "emotion:RR"],
      scenarios: [
        { scenarioId: "s1", domain: "transactional", stored: ["general", "emotion:CC"], plannedRuns: { general: 8 } },
      ],
    },
    bootstrap: { ...DEFAULT_BOOTSTRAP, draws: 50 },
    bins: 4,
    studies: {
      results: {
        fidelity: [{ studyId: 3, study: "A/B", rows: [fidelity] }],
        alignment: [{ studyId: 1, study: "experts", units: 4, rows: [alignment] }],
        proxy: [proxy],
      },
      expected: { simulators: ["sim"], evaluator: "judge", otherEvaluators: ["judge-b"] },
      calibrated: {
        planName: "full",
        planHash: "abc123",
        evaluator: "judge",
        s0: 1,
        studyIds: [1],
        settings: DEFAULT_CALIBRATION,
        runs: 8,
        labelledOutsidePlan: 0,
        rows: calibratedRows(
          ["alpha", "beta"].flatMap((mediator, m) =>
            [0, 1, 2, 3].map((i) => ({
              runId: `c${m}${i}`,
              mediator,
              domain: "transactional",
              judge: { outcome: (i + m) / 5, trajectory: (i + 1) / 6 },
              human: i < 3 ? { outcome: (i + 2 * m) / 6, trajectory: (2 * i + 1) / 8 } : null,
            })),
          ),
        ),
      },
    },
  };
}

function reportOf(input: ReportPartInput, built: ReturnType<typeof buildReportParts>): BenchmarkReport {
  const coverage = { plannedRuns: 1, storedRuns: 1, evaluatedRuns: 1, incompleteRuns: 0 };
  const constants = { params: {}, bins: input.bins, bootstrap: input.bootstrap };
  const base = { planName: input.planName, planHash: input.planHash, evaluator: "judge", simulator: "sim" };
  return { ...base, generatedAt: "2026-01-01T00:00:00Z", studyIds: [1, 3], constants, coverage, ...built };
}

const page = (report: BenchmarkReport, parts?: readonly ReportPart[]) =>
  renderToStaticMarkup(
    <StaticRouter location={`/benchmark/${report.planHash}`}>
      <BenchmarkReportView report={report} charts={{}} parts={parts} />
    </StaticRouter>,
  );

describe("the report-part registry", () => {
  it("has one file per part in app/report-parts, named by the part's id, and no id twice", () => {
    const files = readdirSync("app/report-parts").filter((f) => f !== "registry.ts");
    expect(files.map((f) => f.replace(/\.ts$/, "")).sort()).toEqual(ids(REPORT_PARTS).sort());
    expect(new Set(ids(REPORT_PARTS)).size).toBe(REPORT_PARTS.length);
  });

  it("every registered part appears on the Benchmark page under its id, in report order", () => {
    const input = fullInput();
    const built = buildReportParts(input, REPORT_PARTS);
    // The input gives every part its data: none is left out.
    expect(built.warnings).toEqual([]);
    expect([...ids(built.tables), ...ids(built.figures)].sort()).toEqual(ids(REPORT_PARTS).sort());
    const html = page(reportOf(input, built));
    const places = inReportOrder(REPORT_PARTS).map((part) => {
      expect(html, part.id).toContain(`data-testid="report-${part.id}"`);
      expect(html, part.id).toContain(part.title.replace(/&/g, "&amp;").replace(/'/g, "&#x27;"));
      return html.indexOf(`<section id="${part.id}">`);
    });
    expect(places.every((at) => at >= 0)).toBe(true);
    expect(places).toEqual([...places].sort((a, b) => a - b));
    // Table 3 leads with the leaderboard, and is the one heat-mapped table.
    expect(html).toContain('data-testid="leaderboard"');
    expect(html.match(/shaded within its metric/g)).toHaveLength(1);
  });

  it("the parts marked readsStudies are exactly those a report without studies lacks", () => {
    const { studies: _, ...withoutStudies } = fullInput();
    const built = buildReportParts(withoutStudies, REPORT_PARTS);
    const missing = ids(REPORT_PARTS).filter((id) => ![...built.tables, ...built.figures].some((p) => p.id === id));
    expect(missing.sort()).toEqual(ids(REPORT_PARTS.filter((p) => p.readsStudies)).sort());
    expect(missing.length).toBeGreaterThan(0);
  });
});

describe("a part added to the registry", () => {
  const freshDb = databasePerTest();
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  /** A test-only table: each scenario's number of mediated runs in the main grid. */
  const runsPerScenario: TablePart = {
    id: "test-runs-per-scenario",
    kind: "table",
    section: "paper",
    order: 95,
    title: "Test table: runs per scenario",
    build: (input) => {
      const scenarios = [...new Set(input.subjects.map((s) => s.scenarioId))];
      const rows = scenarios.map((id) => {
        const runs = input.subjects.filter((s) => s.scenarioId === id && s.part === "main");
        const cell = buildCell(
          runs.map((s) => ({ value: 1, scenarioId: id, runId: s.runId })),
          input.bootstrap,
        );
        return { key: id, label: id, cells: { runs: cell } };
      });
      const columns = [{ key: "runs", label: "runs" }];
      const notes = ["Counted from the report input."];
      const title = "Test table: runs per scenario";
      return { id: "test-runs-per-scenario", title, caption: "Runs.", scale: "raw", columns, rows, notes };
    },
  };

  it("reaches report.md, its own csv, report.html and the page, after Table 9", async () => {
    const db = await freshDb();
    const loaded = fixturePlan();
    await seedGrid(db, loaded);
    const report = await buildBenchmarkReport(db, loaded, {
      parts: [...REPORT_PARTS, runsPerScenario],
      studies: false,
    });
    const order = ids(report.tables);
    // After Table 9 (order 90) in the paper section; the emotion tables (another section) would follow.
    expect(order.indexOf("test-runs-per-scenario")).toBeGreaterThan(order.indexOf("table9"));
    expect(order.indexOf("table9")).toBeGreaterThan(-1);
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    await writeReportFiles(report, dir, ["md", "csv", "html"]);
    const md = readFileSync(join(dir, "report.md"), "utf8");
    expect(md).toContain("## Test table: runs per scenario");
    expect(md.indexOf("## Test table")).toBeGreaterThan(md.indexOf("## Table 9"));
    // The fixture's main grid per scenario: 3 conditions × 3 mediators × 2 runs.
    const csv = readFileSync(join(dir, "test-runs-per-scenario.csv"), "utf8").trim().split("\n");
    expect(csv.slice(1).map((l) => l.split(",").slice(0, 3).concat(l.split(",")[5]))).toEqual([
      ["test-runs-per-scenario", "demo-transactional-1", "runs", "18"],
      ["test-runs-per-scenario", "demo-healthcare-1", "runs", "18"],
    ]);
    expect(readFileSync(join(dir, "report.html"), "utf8")).toContain("<h2>Test table: runs per scenario</h2>");
    expect(existsSync(join(dir, "table9.csv"))).toBe(true);
    const html = page(report, [...REPORT_PARTS, runsPerScenario]);
    expect(html).toContain('<section id="test-runs-per-scenario">');
    expect(html).toContain('data-testid="report-test-runs-per-scenario"');
    // The page without it in its registry does not show it: the registry is what the page reads.
    expect(page(report)).not.toContain("test-runs-per-scenario");
  });
});

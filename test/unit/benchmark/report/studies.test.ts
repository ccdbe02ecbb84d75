import { afterEach, describe, expect, it } from "vitest";
import { isReportCell, type ReportTable } from "../../../../app/domain/benchmark/report-model.ts";
import { studyDashboard } from "../../../../app/server/annotation/dashboard.server.ts";
import { listStudies } from "../../../../app/server/annotation/studies.server.ts";
import { buildBenchmarkReport } from "../../../../app/server/benchmark/report.server.ts";
import { demoStudiesDb } from "../../../helpers/demo-studies-db.ts";
import { tempDb } from "../../../../harness/temp-db.ts";
import { fixturePlan, seedGrid } from "./fixture.ts";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

const valueAt = (table: ReportTable, rowLabel: string, column: string) => {
  const v = table.rows.find((r) => r.label === rowLabel)?.cells[column];
  if (!v || isReportCell(v)) throw new Error(`${table.id}: no text cell ${rowLabel} / ${column}`);
  return v.value;
};

describe("benchmark report: the validation studies' tables", () => {
  it("adds Table 1 (fidelity per simulator) and Tables 2 and 6 (alignment per evaluator) from the named studies' dashboards", async () => {
    const t = await demoStudiesDb();
    cleanups.push(t.cleanup);
    // The demo studies: 1 expert consensus (judged by demo-judge), 2 crowd consensus, 3 A/B.
    const loaded = fixturePlan({ ablations: { evaluators: [{ model: "demo-judge" }] }, studies: [1, 3] });
    await seedGrid(t.db, loaded);
    const report = await buildBenchmarkReport(t.db, loaded);
    // The demo's A/B runs carry self-reported emotion, so Table 1's automatic proxy stands beside it.
    expect(report.tables.map((x) => x.id)).toEqual([
      "table1",
      "table1proxy",
      "table2",
      "table3",
      "human-calibrated",
      "table5",
      "table6",
      "table7",
      "table8",
    ]);

    const dashboards = await Promise.all((await listStudies(t.db)).map(async (s) => await studyDashboard(t.db, s.id)));
    const ab = dashboards.flatMap((d) => ("ab" in d ? [d.ab] : []))[0];
    const table1 = report.tables.find((x) => x.id === "table1")!;
    for (const f of ab.fidelity) expect(valueAt(table1, f.backbone, "fidelity")).toBe(f.fidelity);
    // The plan's simulator has no pair in the A/B study: a "—" row, not silence.
    expect(valueAt(table1, "sim-main", "fidelity")).toBeNull();

    const alignment = dashboards.flatMap((d) => ("alignment" in d && d.alignment ? [d.alignment] : []))[0];
    // The demo study was judged by demo-judge, the plan's ablation evaluator: it lands in Table 6.
    const table2 = report.tables.find((x) => x.id === "table2")!;
    const table6 = report.tables.find((x) => x.id === "table6")!;
    for (const row of alignment.rows) {
      const table = row.method === "evaluator" ? table6 : table2;
      expect(valueAt(table, row.label, "trajectory")).toBe(row.trajectory.r);
      expect(valueAt(table, row.label, "outcome")).toBe(row.outcome.r);
      expect(valueAt(table, row.label, "trajectoryN")).toBe(row.trajectory.n);
    }
    expect(table2.notes.join(" ")).toContain(`s0 = ${alignment.s0}`);
    expect(table6.rows.map((r) => r.label)).toEqual(
      alignment.rows.filter((r) => r.method === "evaluator").map((r) => r.label),
    );
  });

  it("leaves Tables 1, 2 and 6 out when the plan names no study", async () => {
    const t = await tempDb();
    cleanups.push(t.cleanup);
    const loaded = fixturePlan({ ablations: {} });
    await seedGrid(t.db, loaded);
    expect((await buildBenchmarkReport(t.db, loaded)).tables.map((x) => x.id)).toEqual(["table3", "table5", "table7"]);
  });
});

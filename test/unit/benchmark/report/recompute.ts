/**
 * The independent check of Tables 3 and 7: plain loops over the metric_values rows of the plan's
 * grid (not the report's own helpers) give every cell's mean, n, missing and runs, compared with
 * the report's. Shared by the report's own test and the runner's kill-and-resume test.
 */
import { expect } from "vitest";
import * as schema from "../../../../db/schema.ts";
import { DOMAINS } from "../../../../app/domain/bundle.ts";
import {
  isReportCell,
  type BenchmarkReport,
  type ReportCell,
  type ReportTable,
} from "../../../../app/domain/benchmark/report-model.ts";
import { planGrid, type LoadedPlan } from "../../../../app/server/benchmark/plan-file.server.ts";
import type { Db } from "../../../../app/server/db.server.ts";

/** The metric_values rows, read straight from the table. */
export async function storedValues(db: Db) {
  const rows = await db.select().from(schema.metricValues);
  return (subjectId: string, evaluation: string, metric: string): { found: boolean; value: number | null } => {
    const row = rows.find((r) => r.subjectId === subjectId && r.evaluationId === evaluation && r.metric === metric);
    return { found: row !== undefined, value: row?.value ?? null };
  };
}

export function reportCell(table: ReportTable, row: string, column: string): ReportCell {
  const v = table.rows.find((r) => r.key === row)?.cells[column];
  if (!isReportCell(v)) throw new Error(`${table.id}: no cell ${row} / ${column}`);
  return v;
}

function expectCell(actual: ReportCell, values: (number | null)[], where: string) {
  let sum = 0;
  let n = 0;
  for (const v of values) if (v !== null) (sum += v), n++;
  expect([where, actual.n, actual.missing, actual.runIds.length]).toEqual([where, n, values.length - n, n]);
  if (n === 0) expect(actual.mean).toBeNull();
  else expect(Math.abs(actual.mean! - sum / n), where).toBeLessThan(1e-12);
}

/**
 * Every cell of Tables 3 and 7 against the recomputation; `notStored` are planned runs left out
 * on purpose. Returns how many CG values were not null (a test must see some).
 */
export async function expectTables3And7MatchStoredRows(
  db: Db,
  loaded: LoadedPlan,
  report: BenchmarkReport,
  notStored: ReadonlySet<string> = new Set(),
): Promise<number> {
  const stored = await storedValues(db);
  const table3 = report.tables.find((t) => t.id === "table3")!;
  const table7 = report.tables.find((t) => t.id === "table7")!;
  const units = (await planGrid(db, loaded.plan)).units.filter((u) => u.part === "main");
  const judge = loaded.plan.evaluator.model;
  // The run's one topic-localized evaluation by the judge, read straight from the table.
  const evaluations = await db.select().from(schema.evaluations);
  const tl = (runId: string) => {
    const found = evaluations.filter(
      (e) => e.runId === runId && e.method === "topic-localized" && e.backbone === judge,
    );
    expect(found.length, runId).toBeLessThanOrEqual(1);
    return found[0]?.id ?? "<not judged>";
  };
  const runsOf = (mediator: string | null, domain: string | null) =>
    units.flatMap((u) =>
      domain === null || u.domain === domain
        ? u.mediated.filter((m) => (mediator === null || m.mediator === mediator) && !notStored.has(m.runId))
        : [],
    );

  const domains = DOMAINS.filter((d) => units.some((u) => u.domain === d));
  let nonNull = 0;
  for (const mediator of [...loaded.plan.mediators.map((m) => m.name), null]) {
    for (const domain of [...domains, null]) {
      const runs = runsOf(mediator, domain);
      const row = mediator ?? "avg";
      const column = (metric: string) => `${metric}|${domain ?? "avg"}`;
      const where = (metric: string) => `${row} / ${column(metric)}`;
      expectCell(
        reportCell(table3, row, column("IT")),
        runs.map((r) => stored(r.runId, tl(r.runId), "IT").value),
        where("IT"),
      );
      expectCell(
        reportCell(table3, row, column("IE")),
        runs.map((r) => stored(r.runId, tl(r.runId), "IE").value),
        where("IE"),
      );
      const cg = runs.map((r) => stored(r.pairId, tl(r.runId), "CG"));
      expect(cg.every((c) => c.found)).toBe(true);
      expectCell(
        reportCell(table3, row, column("CG")),
        cg.map((c) => c.value),
        where("CG"),
      );
      nonNull += cg.filter((c) => c.value !== null).length;
      if (mediator !== null && domain === null) {
        expectCell(
          reportCell(table7, mediator, "IF"),
          runs.map((r) => stored(r.runId, "", "IF").value),
          `${mediator} / IF`,
        );
        expectCell(
          reportCell(table7, mediator, "FI"),
          runs.map((r) => stored(r.runId, "", "FI").value),
          `${mediator} / FI`,
        );
        const entered = runs.filter((r) => stored(r.pairId, tl(r.runId), "CG").value !== null).map((r) => r.runId);
        expect(reportCell(table3, mediator, "CG|avg").runIds.sort()).toEqual(entered.sort());
      }
    }
  }
  return nonNull;
}

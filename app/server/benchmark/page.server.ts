/**
 * The Benchmark page's data: the plans `benchmark run` recorded, and one plan's report (the same
 * BenchmarkReport the CLI writes) with its figures drawn to SVG, its leaderboard, and the runs
 * behind any cell.
 */
import { planGrid, loadStoredPlan, type LoadedPlan } from "./plan-file.server.ts";
import { buildBenchmarkReport, EmptyReportError, type ReportOptions } from "./report.server.ts";
import { renderChart } from "../charts/render.server.ts";
import type { RenderedChart } from "../../domain/charts/chart-data.ts";
import type { Db } from "../db.server.ts";
import { benchmarkPlanList } from "../models/benchmark-plan.server.ts";
import { storedRunIds } from "../models/run.server.ts";
import { isReportCell, type BenchmarkReport } from "../../domain/benchmark/report-model.ts";
import { ServiceError } from "../http/errors.server.ts";
import { REPORT_PARTS } from "../../report-parts/registry.ts";

export interface PlanSummary {
  hash: string;
  name: string;
  source: string;
  lastRunAt: string | null;
  mediators: number;
  plannedRuns: number;
  storedRuns: number;
}

/** Every recorded plan with how much of its grid is stored. */
export async function benchmarkPlans(db: Db): Promise<PlanSummary[]> {
  return await Promise.all(
    (await benchmarkPlanList(db)).map(async (row) => {
      const loaded = (await loadStoredPlan(db, row.hash))!;
      const runIds = (await planGrid(db, loaded.plan)).units.flatMap((u) => [
        u.unmediatedRunId,
        ...u.mediated.map((m) => m.runId),
      ]);
      return {
        hash: row.hash,
        name: row.name,
        source: row.source,
        lastRunAt: row.lastRunAt,
        mediators: loaded.plan.mediators.length,
        plannedRuns: runIds.length,
        storedRuns: (await storedRunIds(db, runIds)).size,
      };
    }),
  );
}

async function loadedPlan(db: Db, hash: string): Promise<LoadedPlan> {
  const loaded = await loadStoredPlan(db, hash);
  if (!loaded)
    throw new ServiceError(
      404,
      `No benchmark plan has the hash "${hash}". The Benchmark page lists the plans that were run.`,
    );
  return loaded;
}

/** The plan's report; a plan with no stored run yet gets the error page with the command that fills it. */
async function reportOf(db: Db, hash: string, options: ReportOptions = {}): Promise<BenchmarkReport> {
  try {
    return await buildBenchmarkReport(db, await loadedPlan(db, hash), options);
  } catch (err) {
    if (err instanceof EmptyReportError) throw new ServiceError(404, err.message);
    throw err;
  }
}

/** The tables built from the validation studies rather than the grid. */
const STUDY_TABLES = REPORT_PARTS.filter((p) => p.readsStudies).map((p) => p.id);

export interface BenchmarkPageData {
  report: BenchmarkReport;
  /** Each figure drawn (wide and narrow) with its data, by figure id. */
  charts: Record<string, RenderedChart>;
}

export async function benchmarkPage(db: Db, hash: string): Promise<BenchmarkPageData> {
  const report = await reportOf(db, hash);
  const charts: Record<string, RenderedChart> = {};
  for (const figure of report.figures) charts[figure.id] = await renderChart(figure.spec);
  return { report, charts };
}

/** The runs that entered one cell of one table, or a 404 naming what was not found. */
export async function cellRunIds(
  db: Db,
  hash: string,
  cell: { table: string; row: string; column: string },
): Promise<{ label: string; runIds: string[] }> {
  // The study tables read every study's dashboard: build them only when the cell is one of theirs.
  const report = await reportOf(db, hash, { studies: STUDY_TABLES.includes(cell.table) });
  const table = report.tables.find((t) => t.id === cell.table);
  const row = table?.rows.find((r) => r.key === cell.row);
  const column = table?.columns.find((c) => c.key === cell.column);
  const value = row?.cells[cell.column];
  if (!table || !row || !column || !isReportCell(value))
    throw new ServiceError(404, `The report of plan ${hash} has no cell ${cell.table} / ${cell.row} / ${cell.column}.`);
  const label = `${table.title}: ${row.label}, ${column.group ? `${column.group} ` : ""}${column.label}`;
  return { label, runIds: value.runIds };
}

/**
 * The benchmark report of a plan: its grid over the stored catalogue, the stored metric rows of
 * the grid's runs and pairs (report-data), and the report parts of app/report-parts (its registry).
 * The CLI writes it to files (report-files); the Benchmark page renders the same object.
 */
import { buildReportParts } from "../../domain/benchmark/report/build.ts";
import type { ReportPart } from "../../domain/benchmark/report/part.ts";
import { DEFAULT_BOOTSTRAP } from "../../domain/benchmark/report/cells.ts";
import type { BootstrapSettings } from "../../domain/benchmark/report/input.ts";
import type { BenchmarkReport } from "../../domain/benchmark/report-model.ts";
import { DEFAULT_TIMING_BINS } from "../../domain/metrics/timing-profile.ts";
import { REPORT_PARTS } from "../../report-parts/registry.ts";
import type { Db } from "../db.server.ts";
import { planGrid, type LoadedPlan } from "./plan-file.server.ts";
import { loadReportData } from "./report-data.server.ts";
import { studyTablesOf } from "./report-scope.server.ts";

export interface ReportOptions {
  bootstrap?: Partial<BootstrapSettings>;
  bins?: number;
  /** Timestamp printed in the report (defaults to now). */
  now?: Date;
  /**
   * Add Tables 1 (with its automatic proxy), 2 and 6 from the named validation studies and the stored A/B pairs
   * (default true).
   */
  studies?: boolean;
  /** The studies Tables 1, 2 and 6 read, instead of the plan's `studies` (`report --study`). */
  studyIds?: readonly number[];
  /** Where studyIds were named, for error messages (default "--study"). */
  studyIdsSource?: string;
  /** The tables and figures to build (default: the registry, app/report-parts/registry.ts). */
  parts?: readonly ReportPart[];
}

/** Thrown when the plan's grid has no stored run: there is nothing to report. */
export class EmptyReportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EmptyReportError";
  }
}

/** One value per parameter when the rows agree; a warning naming the parameter and its values when they do not. */
function constantsOf(params: Map<string, Set<string>>): { params: Record<string, unknown>; warnings: string[] } {
  const out: Record<string, unknown> = {};
  const warnings: string[] = [];
  for (const [name, values] of [...params].sort(([a], [b]) => a.localeCompare(b))) {
    const parsed = [...values].map((v) => JSON.parse(v) as unknown);
    out[name] = parsed.length === 1 ? parsed[0] : parsed;
    if (parsed.length > 1)
      warnings.push(
        `The stored metric rows were computed with different values of ${name}: ${[...values].join(", ")}. Re-run \`socrates metrics\` with one set of parameters.`,
      );
  }
  return { params: out, warnings };
}

export async function buildBenchmarkReport(
  db: Db,
  loaded: LoadedPlan,
  options: ReportOptions = {},
): Promise<BenchmarkReport> {
  const grid = await planGrid(db, loaded.plan);
  const data = await loadReportData(db, loaded, grid);
  if (data.input.subjects.length === 0) {
    throw new EmptyReportError(
      `${loaded.source}: no mediated run of the plan "${loaded.plan.name}" is stored (${data.coverage.plannedMediatedRuns} planned, ${data.coverage.storedRuns} runs of the grid stored); run \`socrates benchmark run --plan ${loaded.source}\` first`,
    );
  }
  const bootstrap = { ...DEFAULT_BOOTSTRAP, ...options.bootstrap };
  const bins = options.bins ?? DEFAULT_TIMING_BINS;
  const constants = constantsOf(data.params);
  const studies = await studyTablesOf(db, loaded, options);
  const input = { ...data.input, bootstrap, bins, studies: studies.input };
  const parts = buildReportParts(input, options.parts ?? REPORT_PARTS);
  const warnings = [...constants.warnings, ...parts.warnings, ...studies.warnings];
  if (grid.missing.length > 0)
    warnings.push(
      `${grid.missing.length} scenario-conditions of the plan are not stored (run \`socrates probe\`), e.g. ${grid.missing[0].scenarioId} ${grid.missing[0].conditionKey}.`,
    );
  if (grid.unknownScenarios.length > 0)
    warnings.push(`Scenarios the plan names but the database lacks: ${grid.unknownScenarios.join(", ")}.`);
  if (data.otherParams.rows > 0) {
    warnings.push(
      `${data.otherParams.rows} stored metric rows of the plan's runs were computed with other parameters than the plan's (e.g. ${data.otherParams.example}) and are left out; run \`socrates benchmark run --plan ${loaded.source}\` to recompute them with the plan's.`,
    );
  }
  if (data.coverage.storedRuns < data.coverage.plannedRuns)
    warnings.push(
      `Only ${data.coverage.storedRuns} of ${data.coverage.plannedRuns} planned runs are stored: the tables cover what is.`,
    );
  return {
    planName: loaded.plan.name,
    planHash: loaded.hash,
    evaluator: data.input.evaluators[0],
    simulator: data.input.simulator,
    generatedAt: (options.now ?? new Date()).toISOString(),
    constants: { params: constants.params, bins, bootstrap },
    coverage: data.coverage,
    studyIds: studies.ids,
    tables: parts.tables,
    figures: parts.figures,
    warnings,
  };
}

/**
 * `socrates validate-evaluator` as a library: judges the expert study's trajectories with the
 * candidate backbone (and the named reference, and with a plan the benchmark's main-grid runs),
 * each evaluation stored whole the moment it is done and every call through the LLM cache, so a
 * second command makes no call; then builds the report from the study dashboard's own figures
 * and the backbone comparison. The spending cap stops new calls, never half-stores anything.
 */
import { buildTable8 } from "../../report-parts/table8.ts";
import { DEFAULT_BOOTSTRAP } from "../../domain/benchmark/report/cells.ts";
import { DEFAULT_TIMING_BINS } from "../../domain/metrics/timing-profile.ts";
import { ofDefinitions, parseMetricParams, storedWithParams } from "../../domain/metrics/metric-params.ts";
import type { ReportTable } from "../../domain/benchmark/report-model.ts";
import type { Llm } from "../../domain/llm/types.ts";
import { bestBackbone, compareBackbones } from "../../domain/validation/backbone-comparison.ts";
import { buildEvaluatorReport, type EvaluatorValidationReport } from "../../domain/validation/evaluator-report.ts";
import { trendChartSpec } from "../../domain/validation/trend-chart.ts";
import { studyDashboard } from "../annotation/dashboard.server.ts";
import type { Db } from "../db.server.ts";
import type { LlmConfig } from "../llm/config.server.ts";
import { metricValuesOf, staleMetricValuesOf } from "../models/metric-value.server.ts";
import { evaluateRuns, type RunStatus } from "../pipeline/evaluate-runs.server.ts";
import { computeMetrics } from "../pipeline/metrics-runner.server.ts";
import { TOPIC_METHOD } from "../pipeline/evaluate-topic.server.ts";
import { currentEvaluationIds } from "../pipeline/evaluation-identity.server.ts";
import { planGrid, type LoadedPlan } from "../benchmark/plan-file.server.ts";
import { loadReportData } from "../benchmark/report-data.server.ts";
import type { LedgerTotals } from "../../domain/llm/call-ledger.ts";
import { routedLlm, spendGuard } from "../benchmark/spend-cap.server.ts";
import {
  benchmarkRunIds,
  expertStudy,
  pendingJudging,
  studyRunIds,
  ValidationInputError,
  type PendingJudging,
} from "./evaluator-work.server.ts";

export interface ValidationTarget {
  studyId: number;
  candidate: string;
  /** The reference backbone; default: bestBackbone (the best aligned among those that scored the most units). */
  against?: string;
  /** The endpoint (from the configuration) the candidate is asked on; default: the evaluator role's. */
  endpoint?: string;
  benchmark?: LoadedPlan;
}

export interface ValidationWork {
  studyName: string;
  /**
   * What each backbone still has to judge: the candidate (and a named reference) on the study, the candidate on the
   * benchmark.
   */
  jobs: (PendingJudging & { scope: "study trajectories" | "benchmark runs" })[];
  /** The benchmark's mediated runs (Table 8's subjects), when a plan is given. */
  benchmarkMediatedRunIds: string[];
}

/** Checks the target and counts the pending work and its expected cost; calls nothing. */
export async function planValidation(db: Db, config: LlmConfig, target: ValidationTarget): Promise<ValidationWork> {
  const study = await expertStudy(db, target.studyId);
  if (target.against === target.candidate)
    throw new ValidationInputError(`--against names the candidate itself ("${target.candidate}")`);
  if (target.endpoint !== undefined && !config.endpoints[target.endpoint]) {
    throw new ValidationInputError(
      `unknown endpoint "${target.endpoint}" (the configuration has ${Object.keys(config.endpoints).join(", ")})`,
    );
  }
  const runs = await studyRunIds(db, study.id);
  if (runs.length === 0) throw new ValidationInputError(`study ${study.id} has no snippets of stored runs to judge`);
  const onStudy = async (backbone: string) => ({
    ...(await pendingJudging(db, config, backbone, runs)),
    scope: "study trajectories" as const,
  });
  const jobs: ValidationWork["jobs"] = [
    await onStudy(target.candidate),
    ...(target.against ? [await onStudy(target.against)] : []),
  ];
  let benchmarkMediatedRunIds: string[] = [];
  if (target.benchmark) {
    const plan = target.benchmark.plan;
    if (plan.evaluator.model === target.candidate)
      throw new ValidationInputError(`${target.candidate} is already the evaluator of the plan "${plan.name}"`);
    const bench = await benchmarkRunIds(db, plan);
    if (bench.mediatedRunIds.length === 0)
      throw new ValidationInputError(
        `no mediated run of the plan "${plan.name}" is stored; run \`socrates benchmark run --plan ${target.benchmark.source}\` first`,
      );
    const studyRuns = new Set(runs);
    jobs.push({
      ...(await pendingJudging(
        db,
        config,
        target.candidate,
        bench.runIds.filter((r) => !studyRuns.has(r)),
      )),
      scope: "benchmark runs",
    });
    benchmarkMediatedRunIds = bench.mediatedRunIds;
  }
  return { studyName: study.name, jobs, benchmarkMediatedRunIds };
}

export interface ValidationRunOptions {
  db: Db;
  llm: Llm;
  config: LlmConfig;
  target: ValidationTarget;
  work: ValidationWork;
  maxCostUsd?: number;
  minR?: number;
  concurrency?: number;
  signal?: AbortSignal;
  /** Bootstrap of the difference test (default: the study's own draws and seed). */
  bootstrap?: { draws?: number; seed?: number };
  now?: Date;
  onStart?: (runs: number, spentUsd: () => number) => void;
  onRun?: (status: RunStatus, backbone: string) => void;
}

export interface ValidationOutcome {
  report: EvaluatorValidationReport | null;
  stopped: "cap" | "signal" | null;
  failures: { runId: string; backbone: string; message: string }[];
  spentUsd: number;
  /** The judge calls of this command, from the ledger the dollars come from. */
  calls: LedgerTotals;
  evaluationsStored: number;
  metricRuns: number;
}

/**
 * Judges every pending run; once the cap or a signal stops the calls, the runs it cut short are not reported as
 * failures.
 */
async function judgeAll(
  options: ValidationRunOptions,
  llm: Llm,
  outcome: ValidationOutcome,
  stopped: () => boolean,
): Promise<void> {
  for (const job of options.work.jobs) {
    if (job.pending.length === 0 || stopped()) continue;
    const summary = await evaluateRuns(options.db, {
      llm,
      method: "topic",
      runIds: job.pending,
      backbone: job.backbone,
      concurrency: options.concurrency ?? 8,
      onRun: (status) => {
        if (status.status !== "failed" || !stopped()) options.onRun?.(status, job.backbone);
      },
    });
    for (const r of summary.runs) {
      if (r.status === "stored") outcome.evaluationsStored += 1;
      if (r.status === "failed") outcome.failures.push({ runId: r.runId, backbone: job.backbone, message: r.message });
    }
  }
}

/** IT, IE and CG of the benchmark's mediated runs (and their pairs) under the candidate, where not stored yet. */
async function benchmarkMetrics(options: ValidationRunOptions): Promise<number> {
  const { db, target, work } = options;
  const params = parseMetricParams(target.benchmark!.plan.params);
  let computed = 0;
  const ids = await currentEvaluationIds(db, work.benchmarkMediatedRunIds, TOPIC_METHOD, target.candidate);
  for (const runId of work.benchmarkMediatedRunIds) {
    const id = ids.get(runId)!;
    // Stored, current and of the plan's parameters: otherwise recomputed (docs/metrics.md).
    const rows = (await metricValuesOf(db, "run", runId)).filter((row) => ofDefinitions(row, params));
    if (
      rows.some((row) => row.evaluationId === id) &&
      rows.every((row) => storedWithParams(row, params)) &&
      (await staleMetricValuesOf(db, "run", runId)).length === 0
    )
      continue;
    await computeMetrics(db, { runId, params });
    computed += 1;
  }
  return computed;
}

/** Table 8 for the plan with the candidate as its evaluator ablation. */
async function table8Of(db: Db, target: ValidationTarget): Promise<ReportTable | null> {
  const loaded = target.benchmark!;
  const plan = {
    ...loaded.plan,
    ablations: {
      ...loaded.plan.ablations,
      evaluators: [{ model: target.candidate, ...(target.endpoint ? { endpoint: target.endpoint } : {}) }],
    },
  };
  const data = await loadReportData(db, { ...loaded, plan }, await planGrid(db, plan));
  return buildTable8({ ...data.input, bootstrap: DEFAULT_BOOTSTRAP, bins: DEFAULT_TIMING_BINS });
}

export async function buildValidationReport(
  db: Db,
  target: ValidationTarget,
  options: Pick<ValidationRunOptions, "minR" | "bootstrap" | "now"> & { warnings?: string[] } = {},
): Promise<EvaluatorValidationReport> {
  const dashboard = await studyDashboard(db, target.studyId);
  if (!("alignment" in dashboard) || !dashboard.alignment)
    throw new ValidationInputError(`study ${target.studyId} has no alignment table (is it an expert consensus study?)`);
  const table = dashboard.alignment;
  const has = (backbone: string) => table.rows.some((r) => r.method === "evaluator" && r.backbone === backbone);
  if (table.units.length === 0)
    throw new ValidationInputError(
      `study ${target.studyId} has no expert-labelled units yet: there is nothing to validate against`,
    );
  if (!has(target.candidate))
    throw new ValidationInputError(
      `${target.candidate} has no usable evaluation of the study's trajectories (every judge call failed?)`,
    );
  const reference = target.against ?? bestBackbone(table, target.candidate);
  if (reference !== null && !has(reference))
    throw new ValidationInputError(`${reference} has no usable evaluation of the study's trajectories`);
  const boot = {
    draws: options.bootstrap?.draws ?? dashboard.study.config.bootstrapDraws,
    seed: options.bootstrap?.seed ?? dashboard.study.config.seed,
  };
  const comparison = reference === null ? null : compareBackbones(table, target.candidate, reference, boot);
  const series = [
    "expert",
    `evaluator:${target.candidate}`,
    ...(reference ? [`evaluator:${reference}`] : []),
    "baseline",
  ];
  return buildEvaluatorReport({
    study: { id: dashboard.study.id, name: dashboard.study.name },
    candidate: target.candidate,
    reference,
    table,
    agreement: dashboard.agreement,
    comparison,
    trendSpec: trendChartSpec(dashboard.trend!, { title: "Consensus by snippet position", only: series }),
    table8: target.benchmark ? await table8Of(db, target) : null,
    ...(options.minR !== undefined ? { minR: options.minR } : {}),
    generatedAt: (options.now ?? new Date()).toISOString(),
    warnings: options.warnings ?? [],
  });
}

export async function validateEvaluator(options: ValidationRunOptions): Promise<ValidationOutcome> {
  const { db, config, target, signal } = options;
  const guard = spendGuard({ llm: options.llm, db, config, maxCostUsd: options.maxCostUsd, signal });
  const llm = routedLlm(guard.llm, { evaluator: target.endpoint });
  const outcome: ValidationOutcome = {
    report: null,
    stopped: null,
    failures: [],
    spentUsd: 0,
    calls: guard.ledger.totals(),
    evaluationsStored: 0,
    metricRuns: 0,
  };
  options.onStart?.(
    options.work.jobs.reduce((n, j) => n + j.pending.length, 0),
    guard.spentUsd,
  );
  const stopped = () => guard.capReached() || Boolean(signal?.aborted);
  await judgeAll(options, llm, outcome, stopped);
  // A stop abandons the evaluation in progress; its calls already on the wire are waited for and
  // recorded, so the resume reads them from the cache instead of paying again.
  await guard.settled();
  outcome.spentUsd = guard.spentUsd();
  outcome.calls = guard.ledger.totals();
  outcome.stopped = guard.capReached() ? "cap" : signal?.aborted ? "signal" : null;
  if (outcome.stopped) {
    outcome.failures = [];
    return outcome;
  }
  if (target.benchmark) outcome.metricRuns = await benchmarkMetrics(options);
  const warnings =
    outcome.failures.length > 0
      ? [`${outcome.failures.length} evaluation(s) failed and are left out; run the command again to retry them.`]
      : [];
  outcome.report = await buildValidationReport(db, target, { ...options, warnings });
  return outcome;
}

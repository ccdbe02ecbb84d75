/**
 * `benchmark run` as a library: the grid of a plan (one shard of it), simulated, judged and
 * measured. Units are worked on concurrently by a pool large enough that the endpoints' own
 * concurrency limits decide what waits; inside a unit the shared unmediated run and every
 * mediator's run go at once, each run is stored whole the moment it is complete, its matched
 * pairs as soon as both their runs are stored, and its evaluations start right away (the
 * topic-localized judges, then the plan's emotion judge on runs without self-reported emotion),
 * then its metrics. A run this process simulates goes straight on, in memory, to its judges and
 * metrics: it is stored directly with the repositories (own-records.server.ts), not passed through
 * the importer's checks for foreign input, and not read back. A killed command resumes with nothing
 * lost: stored runs and evaluations are skipped, and interrupted runs replay their calls from the
 * LLM cache.
 */
import { socialSettingsOf, type BenchmarkPlan } from "../../domain/benchmark/plan.ts";
import type { Llm, LlmRole } from "../../domain/llm/types.ts";
import { ofDefinitions, parseMetricParams, storedWithParams } from "../../domain/metrics/metric-params.ts";
import { runSeed } from "../../domain/simulation/schedule.ts";
import { simulateRun, type RunSetup } from "../../domain/simulation/simulate-run.ts";
import type { LedgerTotals, RoleCalls } from "../../domain/llm/call-ledger.ts";
import { runConfigOf } from "../../domain/simulation/run-identity.ts";
import type { Db } from "../db.server.ts";
import { transact } from "../db-transaction.server.ts";
import { endpointConcurrency, type LlmConfig } from "../llm/config.server.ts";
import { touchBenchmarkPlan } from "../models/benchmark-plan.server.ts";
import { metricValuesOf, staleMetricValuesOf } from "../models/metric-value.server.ts";
import { evaluateRuns, type EvaluateJob } from "../pipeline/evaluate-runs.server.ts";
import { recordMetricParams } from "../pipeline/metric-settings.server.ts";
import { heldRun, type HeldRun } from "../pipeline/evaluation-context.server.ts";
import { computeMetrics, runFactsOf, type RunFacts } from "../pipeline/metrics-runner.server.ts";
import { storeOwnPairs, storeOwnRun } from "../pipeline/own-records.server.ts";
import { simulationPromptsFor } from "../pipeline/simulation-prompts.server.ts";
import {
  playedConditions,
  shardWork,
  unitWork,
  type PlayedCondition,
  type RunWork,
  type ShardWork,
  type UnitWork,
} from "./grid-work.server.ts";
import type { LoadedPlan } from "./plan-file.server.ts";
import { checkPlanAgainstConfig } from "./plan-check.server.ts";
import { leasedQueue, type WorkerLeases } from "./work-leases.server.ts";
import { BenchmarkStopped, routedLlm, spendGuard, type SpendGuard } from "./spend-cap.server.ts";

export type GridEvent =
  | { type: "simulated" | "evaluated"; id: string; note?: string }
  | { type: "skipped"; steps: number }
  | { type: "failed"; id: string; reason: string };

export interface GridRunOptions {
  db: Db;
  llm: Llm;
  config: LlmConfig;
  loaded: LoadedPlan;
  shard?: { index: number; count: number };
  /**
   * The shard's work as prepareGridRun returned it for these db, config, loaded and shard (the CLI
   * prepares it to show the grid and the estimate first); without, runGrid prepares it.
   */
  prepared?: ShardWork;
  maxCostUsd?: number;
  /** Units in flight at once (default: the plan's endpoints' concurrency limits added up). */
  concurrency?: number;
  signal?: AbortSignal;
  /**
   * Leases shared with other `benchmark run` processes on the database (work-leases.server.ts); without, this process
   * assumes it is alone.
   */
  leases?: WorkerLeases;
  /**
   * Called once with the number of steps (runs + evaluations of the shard) and a reader of the dollars spent so far.
   */
  onStart?: (steps: number, spentUsd: () => number) => void;
  onProgress?: (event: GridEvent) => void;
}

export interface GridSummary {
  units: number;
  runs: { stored: number; skipped: number };
  evaluations: { stored: number; skipped: number };
  pairsStored: number;
  metricRuns: number;
  failures: { id: string; reason: string }[];
  /** Steps (a run or an evaluation) in progress when the cap or a signal stopped the runner: dropped, not failed. */
  droppedInFlight: number;
  /** Why the command stopped before the end: the spending cap, or a signal (Ctrl-C). */
  stopped: "cap" | "signal" | null;
  /** The spend guard's ledger: the dollars above are its total cost. */
  spentUsd: number;
  /** Every LLM call of this command by role (simulation, mediators, each judge), and their sum; cached calls apart. */
  calls: { byRole: RoleCalls[]; total: LedgerTotals };
}

interface Ctx {
  db: Db;
  plan: BenchmarkPlan;
  guard: SpendGuard;
  signal?: AbortSignal;
  params: ReturnType<typeof parseMetricParams>;
  playedOf: (unit: UnitWork["unit"]) => Promise<PlayedCondition>;
  summary: GridSummary;
  onProgress?: (event: GridEvent) => void;
  /** The runs this command simulated, held until their unit is done: their judges and metrics read them from here. */
  held: { runs: Map<string, HeldRun>; facts: Map<string, RunFacts> };
}

/** The default pool size: enough units that every endpoint the plan uses can be kept full. */
export function defaultConcurrency(plan: BenchmarkPlan, config: LlmConfig): number {
  const names = new Set<string>();
  const add = (endpoint: string | undefined, role: LlmRole) =>
    names.add(endpoint ?? config.roles[role]?.endpoint ?? "");
  for (const m of plan.mediators) add(m.endpoint, "mediator");
  add(plan.simulator.endpoint, "party");
  add(plan.evaluator.endpoint, "evaluator");
  if (plan.emotion?.judge) add(plan.emotion.judge.endpoint, "emotion-judge");
  const total = [...names].reduce((n, name) => n + endpointConcurrency(config.endpoints[name]), 0);
  return Math.max(2, total);
}

/** Stores each pair of the unit whose two runs are stored; returns the run ids whose pairs are new. */
async function storeReadyPairs(ctx: Ctx, work: UnitWork): Promise<string[]> {
  const stored = new Set(work.runs.filter((r) => r.stored).map((r) => r.runId));
  const ready = work.pairs.filter((p) => !p.stored && stored.has(p.mediatedRunId) && stored.has(p.unmediatedRunId));
  if (ready.length === 0) return [];
  const conditionId = work.unit.conditionId;
  // Taken before the store awaits, so another run of the unit finishing meanwhile does not store them too.
  for (const p of ready) p.stored = true;
  try {
    await storeOwnPairs(
      ctx.db,
      `<benchmark pairs of ${conditionId}>`,
      ready.map((p) => ({
        id: p.id,
        condition_id: conditionId,
        mediated_run_id: p.mediatedRunId,
        unmediated_run_id: p.unmediatedRunId,
      })),
    );
  } catch (err) {
    for (const p of ready) p.stored = false;
    throw err;
  }
  ctx.summary.pairsStored += ready.length;
  return ready.flatMap((p) => [p.mediatedRunId, p.unmediatedRunId]);
}

/** Whether the plan asks the parties to report their emotion as they play (its `emotion.selfReport`). */
function selfReportOf(plan: BenchmarkPlan): boolean {
  return plan.emotion?.selfReport ?? false;
}

async function setupOf(ctx: Ctx, work: UnitWork, run: RunWork): Promise<RunSetup> {
  const { unit } = work;
  const { condition, played } = await ctx.playedOf(unit);
  const emotion = selfReportOf(ctx.plan);
  // The run records its settings, so it is found by them again (run-identity.ts).
  const config = runConfigOf(run.settings);
  return {
    runId: run.runId,
    conditionId: condition.id,
    scenario: played,
    partyOrder: played.parties.map((p) => p.id),
    simulatorModel: unit.simulator.model,
    mediatorModel: run.mediator?.model ?? null,
    budget: ctx.plan.budget,
    seed: runSeed(ctx.plan.seed, unit.runIndex),
    config,
    ...(emotion ? { emotion: true } : {}),
    ...(run.mediator?.mode === "social" ? { mediatorSocial: socialSettingsOf(run.mediator) } : {}),
  };
}

/** The reason a step did not finish, unless the runner was stopped (then it is not a failure). */
function recordFailure(ctx: Ctx, id: string, reason: string): void {
  if (ctx.guard.capReached() || ctx.signal?.aborted) {
    ctx.summary.droppedInFlight += 1;
    return;
  }
  ctx.summary.failures.push({ id, reason });
  ctx.onProgress?.({ type: "failed", id, reason });
}

async function simulate(ctx: Ctx, work: UnitWork, run: RunWork): Promise<boolean> {
  const llm = routedLlm(ctx.guard.llm, { party: work.unit.simulator.endpoint, mediator: run.mediator?.endpoint });
  const attempt = await simulateRun(
    llm,
    simulationPromptsFor(run.mediator?.mode ?? "generic"),
    await setupOf(ctx, work, run),
    { signal: ctx.signal },
  );
  if (!attempt.ok) {
    recordFailure(ctx, run.runId, attempt.reason); // an abort by the signal counts as dropped
    return false;
  }
  const { condition, played } = await ctx.playedOf(work.unit);
  try {
    await storeOwnRun(ctx.db, `<benchmark ${run.runId}>`, attempt.run, condition.scenario_id);
  } catch (err) {
    recordFailure(ctx, run.runId, `could not store the run: ${(err as Error).message}`);
    return false;
  }
  ctx.held.runs.set(run.runId, heldRun(attempt.run, played));
  ctx.held.facts.set(run.runId, runFactsOf(attempt.run, played));
  run.stored = true;
  ctx.summary.runs.stored += 1;
  ctx.onProgress?.({
    type: "simulated",
    id: run.runId,
    note: `${attempt.run.outcome} after ${attempt.run.turns.length} turns`,
  });
  return true;
}

/** Every pending evaluation of the run; true when at least one was stored. */
async function evaluate(ctx: Ctx, run: RunWork): Promise<boolean> {
  let storedAny = false;
  for (const evaluator of [...run.pendingEvaluators]) {
    if (ctx.guard.capReached() || ctx.signal?.aborted) return storedAny;
    const llm = routedLlm(ctx.guard.llm, { evaluator: evaluator.endpoint });
    const held = ctx.held.runs;
    const job: EvaluateJob = { llm, method: "topic", runIds: [run.runId], backbone: evaluator.model, held };
    const status = (await evaluateRuns(ctx.db, { ...job, concurrency: 1 })).runs[0];
    if (status.status === "stored" || status.status === "skipped") {
      run.pendingEvaluators = run.pendingEvaluators.filter((e) => e !== evaluator);
      ctx.summary.evaluations.stored += 1;
      storedAny = true;
      ctx.onProgress?.({
        type: "evaluated",
        id: `${run.runId} by ${evaluator.model}`,
        note: status.status === "stored" && status.errors > 0 ? `${status.errors} topic(s) unjudged` : undefined,
      });
    } else if (status.status === "failed") recordFailure(ctx, `${run.runId} by ${evaluator.model}`, status.message);
  }
  return storedAny;
}

/** The plan's emotion judge on the run, when it is pending; true when its evaluation was stored. */
async function judgeEmotion(ctx: Ctx, run: RunWork): Promise<boolean> {
  const judge = ctx.plan.emotion?.judge;
  if (!judge || run.emotionJudge !== "pending" || ctx.guard.capReached() || ctx.signal?.aborted) return false;
  const id = `${run.runId} emotion by ${judge.model}`;
  const llm = routedLlm(ctx.guard.llm, { "emotion-judge": judge.endpoint });
  const held = ctx.held.runs;
  const job: EvaluateJob = { llm, method: "emotion", runIds: [run.runId], backbone: judge.model, concurrency: 1, held };
  const status = (await evaluateRuns(ctx.db, job)).runs[0];
  if (status.status === "failed") {
    recordFailure(ctx, id, status.message);
    return false;
  }
  run.emotionJudge = "done";
  if (status.status !== "stored") {
    ctx.onProgress?.({ type: "evaluated", id, note: status.status === "skipped" ? status.reason : undefined });
    return false;
  }
  ctx.summary.evaluations.stored += 1;
  ctx.onProgress?.({
    type: "evaluated",
    id,
    note: status.errors > 0 ? `${status.errors} part${status.errors === 1 ? "y" : "ies"} unjudged` : undefined,
  });
  return true;
}

/**
 * Whether an earlier command computed the run's metrics: its own rows, or for an unmediated run
 * (which has none) its pairs' — none of them by an earlier metric definition, and all with the
 * plan's parameters (a plan whose δ changed measures again).
 */
async function hasMetrics(ctx: Ctx, work: UnitWork, run: RunWork): Promise<boolean> {
  const { db, params } = ctx;
  const pairs = work.pairs.filter(
    (p) => p.stored && (p.mediatedRunId === run.runId || p.unmediatedRunId === run.runId),
  );
  if ((await staleMetricValuesOf(db, "run", run.runId)).length > 0) return false;
  for (const p of pairs) if ((await staleMetricValuesOf(db, "pair", p.id)).length > 0) return false;
  // Rows of the other metric definitions (docs/metrics.md, "ProMediate reference definitions") are not the plan's.
  const own = (await metricValuesOf(db, "run", run.runId)).filter((row) => ofDefinitions(row, params));
  const ofPairs = await Promise.all(
    pairs.map(async (p) => (await metricValuesOf(db, "pair", p.id)).filter((row) => ofDefinitions(row, params))),
  );
  if (![own, ...ofPairs].every((rows) => rows.every((row) => storedWithParams(row, params)))) return false;
  return run.mediator ? own.length > 0 : ofPairs.every((rows) => rows.length > 0);
}

async function runOne(ctx: Ctx, work: UnitWork, run: RunWork): Promise<void> {
  let fresh = false;
  if (!run.stored) {
    if (!(await simulate(ctx, work, run))) return;
    fresh = true;
  }
  const pairedRuns = await storeReadyPairs(ctx, work);
  const evaluated = await evaluate(ctx, run);
  const emotionJudged = await judgeEmotion(ctx, run);
  if (run.pendingEvaluators.length > 0 && !evaluated) return;
  // Metrics of the run and of its pairs; the last of a pair's runs to finish computes the pair with both.
  if (fresh || evaluated || emotionJudged || pairedRuns.length > 0 || !(await hasMetrics(ctx, work, run))) {
    await computeMetrics(ctx.db, { runId: run.runId, params: ctx.params, held: ctx.held.facts });
    ctx.summary.metricRuns += 1;
  }
}

async function runUnit(ctx: Ctx, work: UnitWork): Promise<void> {
  await storeReadyPairs(ctx, work); // pairs whose runs an interrupted command stored
  try {
    await Promise.all(work.runs.map((run) => runOne(ctx, work, run)));
  } finally {
    for (const run of work.runs) {
      ctx.held.runs.delete(run.runId);
      ctx.held.facts.delete(run.runId);
    }
  }
}

/** The lease a unit is worked under: its runs share their opening requests, so one worker does them all. */
const unitLeaseKey = (w: UnitWork) => `unit:${w.unit.unmediatedRunId}`;

/** Steps of a unit already done: stored runs, their evaluations, emotion judgments. */
function doneSteps(w: UnitWork): number {
  return w.runs.reduce(
    (n, r) =>
      n + (r.stored ? 1 : 0) + (w.evaluators.length - r.pendingEvaluators.length) + (r.emotionJudge === "done" ? 1 : 0),
    0,
  );
}

/**
 * A unit's work as the database now has it: another worker may have done some or all of it since the command started.
 */
async function reread(ctx: Ctx, w: UnitWork): Promise<UnitWork> {
  const now = await unitWork(ctx.db, ctx.plan, w.unit);
  const more = doneSteps(now) - doneSteps(w);
  if (more <= 0) return now;
  // Done by another worker: counted as skipped, as an earlier command's work is.
  const runsMore = now.runs.filter((r) => r.stored).length - w.runs.filter((r) => r.stored).length;
  ctx.summary.runs.skipped += runsMore;
  ctx.summary.evaluations.skipped += more - runsMore;
  ctx.onProgress?.({ type: "skipped", steps: more });
  return now;
}

/** Throws BenchmarkPlanError for a plan the configuration or the database cannot serve. */
export async function prepareGridRun(options: Pick<GridRunOptions, "db" | "config" | "loaded" | "shard">) {
  const { db, config, loaded, shard } = options;
  checkPlanAgainstConfig(loaded.plan, loaded.source, config);
  return await shardWork(db, loaded, shard, config);
}

export async function runGrid(options: GridRunOptions): Promise<GridSummary> {
  const { db, config, loaded, signal } = options;
  const { plan } = loaded;
  const work = options.prepared ?? (await prepareGridRun(options));
  const params = parseMetricParams(plan.params);
  await transact(db, async (db) => {
    await touchBenchmarkPlan(db, { hash: loaded.hash, name: plan.name, plan, source: loaded.source });
    await recordMetricParams(db, params);
  });

  const guard = spendGuard({ llm: options.llm, db, config, maxCostUsd: options.maxCostUsd, signal });
  const summary: GridSummary = {
    units: work.units.length,
    runs: { stored: 0, skipped: 0 },
    evaluations: { stored: 0, skipped: 0 },
    pairsStored: 0,
    metricRuns: 0,
    failures: [],
    droppedInFlight: 0,
    stopped: null,
    spentUsd: 0,
    calls: { byRole: [], total: guard.ledger.totals() },
  };
  const held = { runs: new Map<string, HeldRun>(), facts: new Map<string, RunFacts>() };
  const playedOf = playedConditions(db);
  const ctx: Ctx = { db, plan, guard, signal, params, playedOf, summary, onProgress: options.onProgress, held };

  const emotionSteps = (r: RunWork) => (r.emotionJudge === "none" ? 0 : 1);
  const steps = work.units.reduce(
    (n, w) => n + w.runs.reduce((m, r) => m + 1 + w.evaluators.length + emotionSteps(r), 0),
    0,
  );
  options.onStart?.(steps, guard.spentUsd);
  for (const w of work.units) {
    for (const r of w.runs) {
      const emotionDone = r.emotionJudge === "done" ? 1 : 0;
      const done = (r.stored ? 1 : 0) + (w.evaluators.length - r.pendingEvaluators.length) + emotionDone;
      summary.runs.skipped += r.stored ? 1 : 0;
      summary.evaluations.skipped += w.evaluators.length - r.pendingEvaluators.length + emotionDone;
      if (done > 0) options.onProgress?.({ type: "skipped", steps: done });
    }
  }

  const stopped = () => guard.capReached() || Boolean(signal?.aborted);
  const queue = leasedQueue(work.units, unitLeaseKey, options.leases, stopped);
  async function worker(): Promise<void> {
    for (let next = await queue.next(); next; next = await queue.next()) {
      try {
        await runUnit(ctx, options.leases ? await reread(ctx, next) : next);
      } finally {
        await queue.done(next);
      }
    }
  }
  const size = Math.min(options.concurrency ?? defaultConcurrency(plan, config), Math.max(1, work.units.length));
  // Every worker winds down (each stops at its next call once the cap is reached or a signal came),
  // and every request already sent comes back and is recorded before the summary: paid once.
  const ended = await Promise.allSettled(Array.from({ length: size }, worker));
  await guard.settled();
  const failed = ended.find(
    (r): r is PromiseRejectedResult => r.status === "rejected" && !(r.reason instanceof BenchmarkStopped),
  );
  if (failed) throw failed.reason;
  summary.stopped = guard.capReached() ? "cap" : signal?.aborted ? "signal" : null;
  summary.spentUsd = guard.spentUsd();
  summary.calls = { byRole: guard.ledger.rows(), total: guard.ledger.totals() };
  return summary;
}

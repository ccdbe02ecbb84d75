/**
 * `socrates benchmark`: run a benchmark plan's grid (simulation, topic-localized evaluation, metrics), or show how far
 * it is.
 */
import { existsSync } from "node:fs";
import type { Command } from "commander";
import { type Db, openDatabase } from "../../app/server/db.server.ts";
import { closeDatabase } from "../../app/server/db-transaction.server.ts";
import { BenchmarkPlanError } from "../../app/domain/benchmark/plan.ts";
import { parseShard } from "../../app/domain/benchmark/grid.ts";
import { createLlm } from "../../app/server/llm/client.server.ts";
import {
  LlmConfigError,
  loadLlmConfig,
  resolveConfigPath,
  type LlmConfig,
} from "../../app/server/llm/config.server.ts";
import { formatCallLedger } from "../../app/server/llm/usage.server.ts";
import {
  countsByPart,
  estimateShardCost,
  shardWork,
  type ShardWork,
} from "../../app/server/benchmark/grid-work.server.ts";
import { loadPlanFile, type LoadedPlan } from "../../app/server/benchmark/plan-file.server.ts";
import { workerLeases } from "../../app/server/benchmark/work-leases.server.ts";
import {
  defaultConcurrency,
  prepareGridRun,
  runGrid,
  type GridEvent,
  type GridSummary,
} from "../../app/server/benchmark/run-grid.server.ts";
import type { GridCostEstimate } from "../../app/domain/benchmark/cost.ts";
import { SimulationInputError } from "../../app/server/pipeline/simulate.server.ts";
import {
  EXIT_INTERRUPTED,
  guardUserErrors,
  interruptedLine,
  interruptible,
  parseIntOption,
  UserError,
} from "../cli-kit.ts";
import { paletteFor } from "../colour.ts";
import { capStopMessage, commandLine } from "../command-line.ts";
import { createProgress, type Progress } from "../progress.ts";

interface RunOptions {
  plan: string;
  maxCost?: string;
  shard?: string;
  dryRun?: boolean;
  concurrency?: string;
  config?: string;
}

const asUserError = guardUserErrors(BenchmarkPlanError, LlmConfigError, SimulationInputError);

function parseMaxCost(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new UserError(`--max-cost must be a number of dollars ≥ 0, got "${raw}"`);
  return n;
}

function describeWork(work: ShardWork, shard: string | undefined): string {
  const lines = [`grid: ${work.gridUnits} units${shard ? `; shard ${shard}: ${work.units.length} units` : ""}`];
  for (const [part, c] of Object.entries(countsByPart(work.units))) {
    lines.push(
      `  ${part}: ${c.units} units, ${c.runs} runs (${c.runs - c.runsStored} to simulate, ${c.runsStored} stored), ` +
        `${c.evaluations} evaluations (${c.evaluationsPending} pending)` +
        (c.emotionEvaluations > 0
          ? `, ${c.emotionEvaluations} emotion-judge evaluations (${c.emotionPending} pending)`
          : ""),
    );
  }
  return lines.join("\n");
}

function describeEstimate(e: GridCostEstimate): string {
  const c = e.calls;
  const lines = [
    `estimate: at most ${c.all} LLM calls (${c.partyCalls} party turns, ${c.mediatorWhenCalls} mediator decisions, ${c.mediatorHowCalls} mediator turns, ${c.judgeCalls} judge calls), before retries; cached calls cost nothing`,
    `estimated cost: $${e.usd.total.toFixed(2)} (parties $${e.usd.party.toFixed(2)}, mediators $${e.usd.mediator.toFixed(2)}, evaluators $${e.usd.evaluator.toFixed(2)}); tokens estimated from prompt sizes (docs/benchmark.md)`,
  ];
  if (e.unpriced.length > 0) lines.push(`no price configured for ${e.unpriced.join(", ")}: counted as $0`);
  return lines.join("\n");
}

/** The calls of this command by role, from the ledger whose dollars the spending cap adds up. */
function describeCalls(s: GridSummary): string[] {
  const t = s.calls.total;
  if (s.calls.byRole.length === 0) return ["LLM calls: none (everything was stored); spent $0.0000"];
  return [
    `LLM calls of this command by role (calls = requests answered by the endpoint, as \`socrates llm usage\` counts them; from cache = answered free by the LLM cache):`,
    formatCallLedger(s.calls.byRole, t),
    `spent $${s.spentUsd.toFixed(4)} on ${t.calls} calls (${t.requests} HTTP requests); ${t.cached} from cache`,
  ];
}

function describeSummary(s: GridSummary): string {
  const lines = [
    `units: ${s.units}; runs: ${s.runs.stored} simulated, ${s.runs.skipped} already stored; evaluations: ${s.evaluations.stored} stored, ${s.evaluations.skipped} already stored; matched pairs stored: ${s.pairsStored}; metrics computed for ${s.metricRuns} runs`,
    ...describeCalls(s),
  ];
  for (const f of s.failures.slice(0, 20)) lines.push(`failed ${f.id}: ${f.reason}`);
  if (s.failures.length > 20) lines.push(`… and ${s.failures.length - 20} more failures`);
  return lines.join("\n");
}

function progressFor(progress: () => Progress | undefined) {
  return (e: GridEvent) => {
    const bar = progress();
    if (!bar) return;
    if (e.type === "skipped") bar.skip(e.steps);
    else if (e.type === "failed") bar.fail(`${e.id}: ${e.reason}`);
    else bar.tick(`${e.id}${e.note ? `: ${e.note}` : ""}`);
  };
}

/** The estimated dollars of the shard's work still pending. */
async function costLeft(
  db: Db,
  loaded: LoadedPlan,
  config: LlmConfig,
  shard: { index: number; count: number } | undefined,
): Promise<number> {
  return (await estimateShardCost(db, loaded.plan, config, (await shardWork(db, loaded, shard)).units)).usd.total;
}

/** What went wrong, if anything, and the command that resumes: every option as the user gave it. */
async function reportStop(
  summary: GridSummary,
  command: Command,
  left: () => Promise<number>,
  maxCostUsd: number | undefined,
): Promise<void> {
  const paint = paletteFor(process.stderr);
  if (summary.stopped === "cap") {
    const leftUsd = await left();
    console.error(paint.warning(capStopMessage(command, { capUsd: maxCostUsd!, spentUsd: summary.spentUsd, leftUsd })));
    process.exitCode = 1;
  } else if (summary.stopped === "signal") {
    console.error(paint.warning(`nothing half done was stored. Resume with: ${commandLine(command)}`));
    process.exitCode = EXIT_INTERRUPTED;
  } else if (summary.failures.length > 0) {
    console.error(
      paint.error(
        `${summary.failures.length} step(s) failed; run the same command again to retry them: ${commandLine(command)}`,
      ),
    );
    process.exitCode = 1;
  } else console.error(paint.success("done: every step of the grid is stored"));
}

/** Ctrl-C's one line, before the summary: the steps done (stored, skipped or failed) and those dropped. */
function reportInterrupted(s: GridSummary): void {
  if (s.stopped !== "signal") return;
  const done = s.runs.stored + s.runs.skipped + s.evaluations.stored + s.evaluations.skipped + s.failures.length;
  console.error(paletteFor(process.stderr).warning(interruptedLine(done, s.droppedInFlight)));
}

/** `benchmark run`'s options, checked before the database is opened. */
function parseRunOptions(opts: RunOptions) {
  const maxCostUsd = parseMaxCost(opts.maxCost);
  const shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
  if (typeof shard === "string") throw new UserError(`--shard: ${shard}`);
  const loaded = asUserError(() => loadPlanFile(opts.plan));
  const config = asUserError(() => loadLlmConfig(resolveConfigPath(opts.config)));
  const concurrency =
    opts.concurrency === undefined
      ? defaultConcurrency(loaded.plan, config)
      : parseIntOption("concurrency", opts.concurrency, 1, 4096);
  return { maxCostUsd, shard, loaded, config, concurrency };
}

type RunSettings = ReturnType<typeof parseRunOptions>;

/** The grid's work on the opened database: shown, estimated, then run unless a dry run. */
async function runOn(db: Db, parsed: RunSettings, opts: RunOptions, command: Command): Promise<void> {
  const { maxCostUsd, shard, loaded, config, concurrency } = parsed;
  const work = await asUserError.async(() => prepareGridRun({ db, config, loaded, shard }));
  console.log(`plan "${loaded.plan.name}" (${loaded.hash}) from ${loaded.source}`);
  console.log(describeWork(work, opts.shard));
  console.log(describeEstimate(await estimateShardCost(db, loaded.plan, config, work.units)));
  if (maxCostUsd !== undefined) console.log(`spending cap: $${maxCostUsd.toFixed(2)} (--max-cost)`);
  if (opts.dryRun) return;

  // Other `benchmark run` processes on this database share the work through leases (docs/benchmark.md).
  const leases = await workerLeases(db);
  const llm = asUserError(() => createLlm({ db, config, shared: leases }));
  // Ctrl-C stops cleanly: no new call starts, runs in progress are abandoned (never half stored) and resume from the
  // cache.
  const { controller, release } = interruptible();
  let bar: Progress | undefined;
  try {
    const summary = await runGrid({
      db,
      llm,
      config,
      loaded,
      shard,
      prepared: work, // prepared once, above: the grid and estimate shown are the work the runner does
      maxCostUsd,
      concurrency,
      leases,
      signal: controller.signal,
      onStart: (steps, spent) => {
        bar = createProgress("benchmark", steps, { unit: "steps", eta: true, cost: spent });
      },
      onProgress: progressFor(() => bar),
    });
    bar?.done();
    reportInterrupted(summary);
    console.log(describeSummary(summary));
    await reportStop(summary, command, () => costLeft(db, loaded, config, shard), maxCostUsd);
  } finally {
    bar?.done();
    release();
    await leases.close();
  }
}

/**
 * Runs `work` on the database, then closes it: an open PostgreSQL pool's idle connections would
 * keep the process alive for the pool's idle timeout (10 s) after the command is done.
 */
async function withDatabase(work: (db: Db) => Promise<void>): Promise<void> {
  const db = await openDatabase();
  try {
    await work(db);
  } finally {
    await closeDatabase(db);
  }
}

async function runCommand(opts: RunOptions, command: Command): Promise<void> {
  // Bad input is reported before the database is opened (a SQLite file created).
  const parsed = parseRunOptions(opts);
  await withDatabase((db) => runOn(db, parsed, opts, command));
}

async function statusCommand(opts: { plan: string; shard?: string; config?: string }): Promise<void> {
  const shard = opts.shard === undefined ? undefined : parseShard(opts.shard);
  if (typeof shard === "string") throw new UserError(`--shard: ${shard}`);
  const loaded = asUserError(() => loadPlanFile(opts.plan));
  // The roles' sampling is part of a run's identity: with the configuration, status counts what `run` would.
  const configPath = resolveConfigPath(opts.config);
  const config =
    opts.config !== undefined || existsSync(configPath) ? asUserError(() => loadLlmConfig(configPath)) : undefined;
  await withDatabase(async (db) => {
    const work = await asUserError.async(() => shardWork(db, loaded, shard, config));
    console.log(`plan "${loaded.plan.name}" (${loaded.hash})`);
    if (!config)
      console.log(`no LLM configuration (${configPath}): runs are matched on every setting but the roles' sampling`);
    console.log(describeWork(work, opts.shard));
  });
}

export function registerBenchmarkCommands(program: Command): void {
  const benchmark = program
    .command("benchmark")
    .description("run a benchmark plan's grid of scenarios × conditions × mediators (docs/benchmark.md)");
  benchmark
    .command("run")
    .description(
      "simulate, evaluate (topic-localized) and measure every run of the plan's grid; skips what is stored, so it resumes after a kill",
    )
    .requiredOption("--plan <file>", "the benchmark plan (benchmark.json; see benchmark.example.json)")
    .option(
      "--max-cost <usd>",
      "stop before a new call would take the spend past this many dollars (cached calls are free)",
    )
    .option(
      "--shard <i/n>",
      "run only shard i of n (by a hash of each unit: the same on every machine); merge databases with export/import",
    )
    .option(
      "--dry-run",
      "print the grid, what is stored and pending, and the call and cost estimate; call and store nothing",
    )
    .option(
      "--concurrency <n>",
      "grid units worked on at once (default: the concurrency limits of the plan's endpoints added up)",
    )
    .option("--config <path>", "LLM configuration (default: SOCRATES_CONFIG or ./socrates.config.json)")
    .addHelpText(
      "after",
      `
Emotion trajectories (optional plan field "emotion", docs/benchmark.md):
  "emotion": { "selfReport": true }
      the parties report their emotion (0-100) every turn as they play
  "emotion": { "selfReport": false, "judge": { "model": "gpt-4o-mini", "endpoint": "openai" } }
      the post-hoc emotion judge (role emotion-judge; one call per party) scores every run of
      the grid that has no self-report, after its topic-localized evaluation; its calls are in
      the estimate. Without the field, runs carry no emotion.`,
    )
    .action(runCommand);
  benchmark
    .command("status")
    .description("count the plan's runs and evaluations stored and pending, per part of the grid; calls nothing")
    .requiredOption("--plan <file>", "the benchmark plan")
    .option("--shard <i/n>", "only shard i of n")
    .option(
      "--config <path>",
      "LLM configuration, whose roles' sampling is part of each run's identity (default: SOCRATES_CONFIG or ./socrates.config.json when present)",
    )
    .action(statusCommand);
}

/** `socrates evaluate` (judge stored runs) and `socrates metrics` (compute and store the metrics). */
import type { Command } from "commander";
import { openDatabase } from "../../app/server/db.server.ts";
import { createLlm } from "../../app/server/llm/client.server.ts";
import { LlmConfigError, loadLlmConfig, resolveConfigPath } from "../../app/server/llm/config.server.ts";
import { formatTable, UsageTally } from "../../app/server/llm/usage.server.ts";
import { RunNotFoundError } from "../../app/server/pipeline/evaluation-context.server.ts";
import {
  EVALUATE_METHODS,
  evaluateRuns,
  selectRunIds,
  type EvaluateMethod,
  type EvaluateSummary,
} from "../../app/server/pipeline/evaluate-runs.server.ts";
import { METRIC_DEFINITIONS } from "../../app/domain/metrics/benchmark/shared-params.ts";
import { METRIC_UNITS } from "../../app/domain/metrics/descriptor.ts";
import {
  formatMetricValue,
  formatParamsInline,
  listIds,
  metricIdsIn,
  unmediatedNote,
} from "../../app/domain/metrics/metric-format.ts";
import { MetricParamsError, PARAM_SPECS } from "../../app/domain/metrics/metric-params.ts";
import type { MetricRow } from "../../app/domain/metrics/metric-rows.ts";
import { METRIC_IDS, readsEmotion } from "../../app/domain/metrics/registry.ts";
import { computeMetrics, type MetricsSummary } from "../../app/server/pipeline/metrics-runner.server.ts";
import { spendGuard } from "../../app/server/benchmark/spend-cap.server.ts";
import {
  EXIT_INTERRUPTED,
  guardUserErrors,
  interruptedLine,
  interruptible,
  parseIntOption,
  UserError,
} from "../cli-kit.ts";
import { paletteFor } from "../colour.ts";
import { commandLine } from "../command-line.ts";
import { createProgress } from "../progress.ts";
import { timingProfiles, type TimingProfileCell } from "../../app/server/pipeline/timing-profile.server.ts";

interface EvaluateOptions {
  run?: string;
  all?: boolean;
  method: string;
  backbone?: string;
  config?: string;
  concurrency: string;
  dryRun?: boolean;
}

interface MetricsOptions {
  run?: string;
  params?: string;
  timing?: boolean;
  bins: string;
  definitions?: string;
}

/** Input and configuration errors become UserErrors (exit code 2 with the message). */
const asUserError = guardUserErrors(LlmConfigError, RunNotFoundError, MetricParamsError);

function interruptedCounts(summary: EvaluateSummary): string {
  const stopped = summary.runs.filter((r) => r.status === "interrupted");
  const inFlight = stopped.filter((r) => r.inFlight).length;
  return `${inFlight} dropped in flight, ${stopped.length - inFlight} not started`;
}

/** The summary, and after Ctrl-C the one "interrupted" line before it and the command that resumes after it. */
function reportEvaluation(summary: EvaluateSummary, tally: UsageTally, command: Command): void {
  const paint = paletteFor(process.stderr);
  const stopped = summary.runs.filter((r) => r.status === "interrupted");
  const inFlight = stopped.filter((r) => r.status === "interrupted" && r.inFlight).length;
  if (stopped.length > 0) console.error(paint.warning(interruptedLine(summary.runs.length - stopped.length, inFlight)));
  console.log(describeEvaluation(summary, tally));
  const failed = summary.runs.filter((r) => r.status === "failed").length;
  if (stopped.length > 0) {
    console.error(
      paint.warning(
        `stored evaluations are kept and answered calls come from the cache. Resume with: ${commandLine(command)}`,
      ),
    );
    process.exitCode = EXIT_INTERRUPTED;
  } else if (failed > 0) {
    console.error(paint.error(`${failed} run(s) failed; run the same command again to retry them`));
    process.exitCode = 1;
  }
}

function describeEvaluation(summary: EvaluateSummary, tally: UsageTally): string {
  const count = (status: string) => summary.runs.filter((r) => r.status === status).length;
  const withErrors = summary.runs.filter((r) => r.status === "stored" && r.errors > 0).length;
  const calls = tally.rows().reduce(
    (t, r) => ({
      calls: t.calls + r.calls,
      cached: t.cached + r.cachedHits,
      failed: t.failed + r.failed,
      prompt: t.prompt + r.promptTokens,
      completion: t.completion + r.completionTokens,
      cost: t.cost + r.costUsd,
    }),
    { calls: 0, cached: 0, failed: 0, prompt: 0, completion: 0, cost: 0 },
  );
  const lines = [
    `${summary.method} with ${summary.backbone}: ${count("stored")} stored${withErrors > 0 ? ` (${withErrors} with recorded errors)` : ""}, ${count("skipped")} skipped, ${count("failed")} failed` +
      (count("interrupted") > 0 ? `; interrupted, not failed: ${interruptedCounts(summary)}` : ""),
    `LLM calls: ${calls.calls - calls.cached} made, ${calls.cached} from cache${calls.failed > 0 ? `, ${calls.failed} failed` : ""}`,
    `tokens (new calls): ${calls.prompt} prompt + ${calls.completion} completion; cost $${calls.cost.toFixed(4)}`,
  ];
  for (const r of summary.runs) if (r.status === "failed") lines.push(`failed ${r.runId}: ${r.message}`);
  return lines.join("\n");
}

/** An emotion row's basis: "emotion:self" or "emotion:judge:<model>", EC adding "+topic-localized:<judge>". */
function emotionBasis(row: MetricRow): string {
  const source = row.detail.source === "judge" ? `judge:${String(row.detail.backbone)}` : String(row.detail.source);
  const topic = typeof row.detail.topicBackbone === "string" ? `+topic-localized:${row.detail.topicBackbone}` : "";
  return `emotion:${source}${topic}`;
}

/** "topic-localized:demo-judge" for an evaluation of the subject, "(run)" for the run's own metrics. */
function basisLabel(row: MetricRow): string {
  if (row.evaluationId === "") return "(run)";
  if (readsEmotion(row.metric)) return emotionBasis(row);
  if (row.subjectKind === "pair") return `topic-localized:${String(row.detail.backbone)}`;
  return row.evaluationId.startsWith(`${row.subjectId}:`)
    ? row.evaluationId.slice(row.subjectId.length + 1)
    : row.evaluationId;
}

function metricsTable(summary: MetricsSummary): string {
  const lines = new Map<string, Map<string, string>>();
  for (const row of summary.rows) {
    const key = `${row.subjectKind === "pair" ? "pair " : ""}${row.subjectId}\t${basisLabel(row)}`;
    const cells = lines.get(key) ?? new Map<string, string>();
    cells.set(row.metric, formatMetricValue(row.metric, row.value));
    lines.set(key, cells);
  }
  const header = ["subject", "basis", ...METRIC_IDS];
  const rows = [...lines].map(([key, cells]) => [...key.split("\t"), ...METRIC_IDS.map((m) => cells.get(m) ?? "")]);
  return formatTable(header, rows);
}

function timingTable(cells: TimingProfileCell[], bins: number): string {
  if (cells.length === 0) return "(no mediated run with a topic-localized evaluation yet)";
  const edges = (i: number) => `${Math.round((100 * i) / bins)}–${Math.round((100 * (i + 1)) / bins)}%`;
  const header = ["mediator", "condition", "judge", "runs", ...Array.from({ length: bins }, (_, i) => edges(i))];
  const rows = cells.map((c) => [
    c.mediator,
    c.condition,
    c.judge,
    String(c.runs),
    ...c.profile.bins.map((b) => (b.meanIe === null ? "—" : `${(100 * b.meanIe).toFixed(1)} (${b.count})`)),
  ]);
  return formatTable(header, rows);
}

export function registerEvaluateCommands(program: Command): void {
  registerEvaluate(program);
  registerMetrics(program);
}

/** `socrates evaluate`: judge stored runs with one method. */
function registerEvaluate(program: Command): void {
  program
    .command("evaluate")
    .description(
      "judge stored runs: topic-localized evaluator, per-turn baseline, mediator-intelligence judge, or post-hoc emotion judge (skips work already stored)",
    )
    .option("--run <id>", "one run")
    .option("--all", "every run in the database")
    .requiredOption("--method <method>", `${EVALUATE_METHODS.join(" | ")}`)
    .option(
      "--backbone <model>",
      "judge model (overrides the configured evaluator, baseline-judge, mi-judge or emotion-judge model)",
    )
    .option("--config <path>", "LLM configuration (default: SOCRATES_CONFIG or ./socrates.config.json)")
    .option("--concurrency <n>", "runs evaluated at once (requests per endpoint are limited by the configuration)", "4")
    .option("--dry-run", "print how many LLM calls the evaluation would make; call nothing")
    .addHelpText(
      "after",
      `
Methods (LLM role in parentheses):
  topic      topic-localized consensus, one call per topic (evaluator)
  per-turn   the per-turn attitude and agreement baseline (baseline-judge)
  mi         mediator intelligence, one call per mediator turn (mi-judge)
  emotion    each party's emotion 0-100 after each of its turns, one call per party, seeing
             that party's own private thoughts (emotion-judge); runs whose parties reported
             their emotion while playing are skipped ("has self-reported emotion")`,
    )
    .action(runEvaluate);
}

async function runEvaluate(opts: EvaluateOptions, command: Command): Promise<void> {
  if (Boolean(opts.run) === Boolean(opts.all)) throw new UserError("give either --run <id> or --all");
  if (!(EVALUATE_METHODS as readonly string[]).includes(opts.method)) {
    throw new UserError(`--method must be one of ${EVALUATE_METHODS.join(", ")}, got "${opts.method}"`);
  }
  const method = opts.method as EvaluateMethod;
  const concurrency = parseIntOption("concurrency", opts.concurrency, 1, 256);
  const config = asUserError(() => loadLlmConfig(resolveConfigPath(opts.config)));
  const db = await openDatabase();
  const tally = new UsageTally();
  const llm = asUserError(() => createLlm({ db, config, onCall: tally.record }));
  const runIds = await asUserError.async(() => selectRunIds(db, { runId: opts.run, all: opts.all }));
  const job = { llm, method, runIds, backbone: opts.backbone, concurrency };

  if (opts.dryRun) {
    const plan = await asUserError.async(() => evaluateRuns(db, { ...job, dryRun: true }));
    const planned = plan.runs.filter((r) => r.status === "planned").length;
    console.log(
      `${method} with ${plan.backbone}: ${planned} run${planned === 1 ? "" : "s"} to evaluate, ${plan.runs.length - planned} skipped (already done or nothing to judge)`,
    );
    console.log(`${plan.calls} LLM calls, before repair retries; cached calls cost nothing`);
    return;
  }

  // Ctrl-C: the guard refuses every call after it, runs in flight store nothing, and the replies
  // already on the wire are awaited so the resume finds them in the cache instead of paying again.
  const { controller, release } = interruptible();
  const guard = spendGuard({ llm, db, config, signal: controller.signal });
  const unit = { unit: "runs", eta: true, cost: tally.costUsd };
  const progress = createProgress(`evaluate ${method}`, runIds.length, unit);
  try {
    const summary = await asUserError.async(() =>
      evaluateRuns(db, {
        ...job,
        llm: guard.llm,
        signal: controller.signal,
        onRun: (r) => {
          if (r.status === "stored") progress.tick(`${r.runId}${r.errors > 0 ? ` (${r.errors} recorded errors)` : ""}`);
          else if (r.status === "skipped") progress.tick(`${r.runId}: ${r.reason}`);
          else if (r.status === "failed") progress.fail(`${r.runId}: ${r.message}`);
        },
      }),
    );
    await guard.settled();
    progress.done();
    reportEvaluation(summary, tally, command);
  } finally {
    progress.done();
    release();
  }
}

/** `--definitions` into the parameters; it must not contradict a `definitions` given in `--params`. */
function withDefinitions(params: Record<string, unknown>, definitions: string | undefined): Record<string, unknown> {
  if (definitions === undefined) return params;
  if (!(METRIC_DEFINITIONS as readonly string[]).includes(definitions))
    throw new UserError(`--definitions: "${definitions}" is not one of ${METRIC_DEFINITIONS.join(", ")}`);
  if (params.definitions !== undefined && params.definitions !== definitions)
    throw new UserError(
      `--definitions ${definitions} contradicts --params: definitions = ${JSON.stringify(params.definitions)}`,
    );
  return { ...params, definitions };
}

/** `socrates metrics`: compute the metrics from stored evaluations and store them. */
function registerMetrics(program: Command): void {
  program
    .command("metrics")
    .description(`compute ${listIds(METRIC_IDS)} from stored evaluations and store them (metric_values)`)
    .option("--run <id>", "one run and its matched pair (default: every run and pair)")
    .option(
      "--params <json>",
      `parameter overrides, e.g. '{"delta":0.1,"W":8}' (keys: ${[...PARAM_SPECS.keys()].join(", ")})`,
    )
    .option(
      "--definitions <which>",
      `how CC, TLE, RL, ME and MI are computed: ${METRIC_DEFINITIONS.join(" | ")} (as ProMediate's released code computes them); rows of each are stored side by side (default: spec)`,
    )
    .option(
      "--timing",
      "also print the timing profile: mean IE ×100 by how far into the run each intervention came, per mediator × condition",
    )
    .option("--bins <n>", "timing profile bins", "5")
    .action(runMetrics);
}

async function runMetrics(opts: MetricsOptions): Promise<void> {
  const bins = parseIntOption("bins", opts.bins, 1, 20);
  let params: Record<string, unknown> = {};
  if (opts.params !== undefined) {
    try {
      params = JSON.parse(opts.params);
    } catch (err) {
      throw new UserError(`--params: invalid JSON: ${(err as Error).message}`);
    }
  }
  params = withDefinitions(params, opts.definitions);
  const db = await openDatabase();
  const summary = await asUserError.async(async () => {
    if (opts.run !== undefined) await selectRunIds(db, { runId: opts.run });
    return await computeMetrics(db, { runId: opts.run, params });
  });
  console.log(metricsTable(summary));
  const incomplete =
    summary.incomplete > 0 ? `, ${summary.incomplete} of them incomplete (null: a judge reply failed)` : "";
  console.log(
    `\n${summary.rows.length} values stored for ${summary.runs} runs and ${summary.pairs} matched pairs${incomplete} (${metricIdsIn(METRIC_UNITS.percent).join(", ")} ×100).`,
  );
  console.log(`params: ${formatParamsInline(summary.params)}`);
  console.log(
    `${unmediatedNote()} A value "—" is undefined or incomplete (a judge reply failed); the stored detail says which.`,
  );
  if (opts.timing) {
    console.log(
      `\nTiming profile (mean IE ×100 per progress bin p = m/T, with the number of interventions; ${bins} bins):`,
    );
    console.log(timingTable(await timingProfiles(db, bins), bins));
  }
}

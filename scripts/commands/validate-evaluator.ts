/** `socrates validate-evaluator`: can a new judge backbone replace the current one? One command, one verdict. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { BenchmarkPlanError } from "../../app/domain/benchmark/plan.ts";
import { tableMarkdown } from "../../app/domain/benchmark/report/format.ts";
import { loadPlanFile, loadStoredPlan, type LoadedPlan } from "../../app/server/benchmark/plan-file.server.ts";
import { writeDocumentFiles } from "../../app/server/benchmark/report-files.server.ts";
import { openDatabase, type Db } from "../../app/server/db.server.ts";
import { createLlm } from "../../app/server/llm/client.server.ts";
import {
  LlmConfigError,
  loadLlmConfig,
  resolveConfigPath,
  type LlmConfig,
} from "../../app/server/llm/config.server.ts";
import { ValidationInputError } from "../../app/server/validation/evaluator-work.server.ts";
import {
  planValidation,
  validateEvaluator,
  type ValidationWork,
} from "../../app/server/validation/validate-evaluator.server.ts";
import { OutputFolderError } from "../../app/server/output-folder.server.ts";
import { guardUserErrors, interruptible, parseIntOption, UserError } from "../cli-kit.ts";
import { capStopMessage, commandLine } from "../command-line.ts";
import { createProgress, type Progress } from "../progress.ts";

/** The exit code when the candidate's trajectory-level r is below --min-r (a pipeline gate). */
export const EXIT_BELOW_MIN_R = 3;

interface Options {
  study: string;
  backbone: string;
  against?: string;
  endpoint?: string;
  benchmark?: string;
  minR?: string;
  maxCost?: string;
  out?: string;
  config?: string;
  concurrency: string;
  dryRun?: boolean;
}

const asUserError = guardUserErrors(ValidationInputError, BenchmarkPlanError, LlmConfigError, OutputFolderError);

function parseNumber(name: string, raw: string | undefined, min: number, max: number): number | undefined {
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n < min || n > max)
    throw new UserError(`--${name} must be a number from ${min} to ${max}, got "${raw}"`);
  return n;
}

/** A plan file, or the hash of a plan `benchmark run` recorded. */
async function loadBenchmark(db: Db, ref: string): Promise<LoadedPlan> {
  if (existsSync(ref)) return asUserError(() => loadPlanFile(ref));
  const stored = await asUserError.async(() => loadStoredPlan(db, ref));
  if (!stored)
    throw new UserError(`--benchmark: "${ref}" is neither a plan file nor the hash of a plan recorded in the database`);
  return stored;
}

function describeWork(work: ValidationWork): string {
  const lines = work.jobs.map((j) => {
    const cost = j.priced ? `≈ $${j.usd.toFixed(2)}` : "no price configured, counted as $0";
    return `${j.backbone} on ${j.runIds.length} ${j.scope}: ${j.pending.length} to judge (${j.calls} judge calls, ${cost}), ${j.runIds.length - j.pending.length} already judged`;
  });
  const calls = work.jobs.reduce((n, j) => n + j.calls, 0);
  const usd = work.jobs.reduce((n, j) => n + j.usd, 0);
  lines.push(
    `estimate: at most ${calls} LLM calls, ≈ $${usd.toFixed(2)} before retries; cached calls cost nothing (tokens estimated from the prompts, docs/benchmark.md)`,
  );
  return lines.join("\n");
}

/** The estimated dollars of the judging still pending. */
async function costLeft(db: Db, config: LlmConfig, target: Parameters<typeof planValidation>[2]): Promise<number> {
  return (await planValidation(db, config, target)).jobs.reduce((n, j) => n + j.usd, 0);
}

async function run(opts: Options, command: Command): Promise<void> {
  const studyId = parseIntOption("study", opts.study, 1);
  const minR = parseNumber("min-r", opts.minR, -1, 1);
  const maxCostUsd = parseNumber("max-cost", opts.maxCost, 0, Number.MAX_SAFE_INTEGER);
  const concurrency = parseIntOption("concurrency", opts.concurrency, 1, 256);
  const config = asUserError(() => loadLlmConfig(resolveConfigPath(opts.config)));
  const db = await openDatabase();
  const benchmark = opts.benchmark === undefined ? undefined : await loadBenchmark(db, opts.benchmark);
  const target = { studyId, candidate: opts.backbone, against: opts.against, endpoint: opts.endpoint, benchmark };
  const work = await asUserError.async(() => planValidation(db, config, target));
  console.log(
    `validating ${opts.backbone} on study ${studyId} ("${work.studyName}")${benchmark ? ` and the benchmark "${benchmark.plan.name}" (${benchmark.hash})` : ""}`,
  );
  console.log(describeWork(work));
  if (maxCostUsd !== undefined) console.log(`spending cap: $${maxCostUsd.toFixed(2)} (--max-cost)`);
  if (opts.dryRun) return;

  const llm = asUserError(() => createLlm({ db, config }));
  const { controller, release } = interruptible();
  let bar: Progress | undefined;
  try {
    const outcome = await asUserError.async(() =>
      validateEvaluator({
        db,
        llm,
        config,
        target,
        work,
        maxCostUsd,
        minR,
        concurrency,
        signal: controller.signal,
        onStart: (runs, spent) => {
          if (runs > 0) bar = createProgress("judge", runs, { unit: "runs", eta: true, cost: spent });
        },
        onRun: (status, backbone) => {
          if (status.status === "failed") bar?.fail(`${status.runId} by ${backbone}: ${status.message}`);
          else
            bar?.tick(
              `${status.runId} by ${backbone}${status.status === "stored" && status.errors > 0 ? ` (${status.errors} topic(s) unjudged)` : ""}`,
            );
        },
      }),
    );
    bar?.done();
    if (outcome.stopped === "cap") {
      console.error(
        capStopMessage(command, {
          capUsd: maxCostUsd!,
          spentUsd: outcome.spentUsd,
          leftUsd: await costLeft(db, config, target),
        }),
      );
      process.exitCode = 1;
      return;
    }
    if (outcome.stopped) {
      console.error(`stopped: interrupted; nothing judged is lost. Resume with: ${commandLine(command)}`);
      process.exitCode = 130;
      return;
    }
    for (const f of outcome.failures.slice(0, 20)) console.error(`failed ${f.runId} by ${f.backbone}: ${f.message}`);
    if (outcome.failures.length > 0)
      console.error(`run again to retry the failed evaluations: ${commandLine(command)}`);
    const report = outcome.report!;
    const outDir =
      opts.out ?? join("exports", `validate-${opts.backbone.replace(/[^A-Za-z0-9._-]+/g, "_")}-study${studyId}`);
    const files = await asUserError.async(() => writeDocumentFiles(report, outDir));
    const c = outcome.calls;
    console.log(
      `judged: ${outcome.evaluationsStored} evaluations stored; metrics computed for ${outcome.metricRuns} benchmark runs; LLM calls: ${c.calls} (${c.requests} HTTP requests), ${c.cached} from cache; spent $${outcome.spentUsd.toFixed(4)}`,
    );
    for (const table of report.tables.slice(0, 2)) console.log(`\n${tableMarkdown(table)}`);
    for (const w of report.warnings) console.log(`warning: ${w}`);
    console.log(`\nwrote ${files.length} files to ${outDir} (report.md, report.html, a csv per table, figure5.svg)`);
    console.log(report.verdict.line);
    if (!report.verdict.passes) process.exitCode = EXIT_BELOW_MIN_R;
    else if (outcome.failures.length > 0) process.exitCode = 1;
  } finally {
    bar?.done();
    release();
  }
}

export function registerValidateEvaluatorCommand(program: Command): void {
  program
    .command("validate-evaluator")
    .description(
      "judge an expert study's trajectories with a new evaluator backbone and test its alignment with the experts against the current one (docs/validate-evaluator.md)",
    )
    .requiredOption("--study <id>", "the expert snippet-consensus study whose labels are the reference")
    .requiredOption("--backbone <model>", "the candidate judge model")
    .option(
      "--against <model>",
      "the reference backbone (default: the stored backbone best aligned with the experts among those that scored the most units); judged too if it has not judged the study",
    )
    .option(
      "--endpoint <name>",
      "the endpoint of the configuration the candidate is asked on (default: the evaluator role's)",
    )
    .option(
      "--benchmark <plan>",
      "also re-judge this benchmark's main-grid runs (a plan file, or the hash of a recorded plan) and report Table 8",
    )
    .option("--min-r <r>", `exit with code ${EXIT_BELOW_MIN_R} when the candidate's trajectory-level r is below this`)
    .option(
      "--max-cost <usd>",
      "stop before a new call would take the spend past this many dollars (cached calls are free)",
    )
    .option("--out <dir>", "output directory (default exports/validate-<backbone>-study<id>)")
    .option("--concurrency <n>", "runs judged at once (requests per endpoint are limited by the configuration)", "8")
    .option("--config <path>", "LLM configuration (default: SOCRATES_CONFIG or ./socrates.config.json)")
    .option("--dry-run", "print what would be judged and the cost estimate; call and store nothing")
    .addHelpText(
      "after",
      `\nExit codes: 0 done; ${EXIT_BELOW_MIN_R} the candidate is below --min-r; 2 bad input; 1 some evaluations failed or the spending cap stopped it (re-run to go on).\nRe-running makes no LLM call: evaluations are stored whole and every call is cached.`,
    )
    .action(run);
}

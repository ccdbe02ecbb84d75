/** `socrates simulate`: multi-party simulation runs with an optional mediator, stored as they complete. */
import type { Command } from "commander";
import { openDatabase } from "../../app/server/db.server.ts";
import { createLlm } from "../../app/server/llm/client.server.ts";
import { LlmConfigError, loadLlmConfig, resolveConfigPath, roleConfig } from "../../app/server/llm/config.server.ts";
import {
  estimateBatch,
  planBatch,
  simulateBatch,
  SimulationInputError,
  type BatchPlan,
  type BatchSummary,
} from "../../app/server/pipeline/simulate.server.ts";
import { DEFAULT_BASE_SEED } from "../../app/domain/simulation/schedule.ts";
import { UsageTally } from "../../app/server/llm/usage.server.ts";
import {
  EXIT_INTERRUPTED,
  guardUserErrors,
  interruptedLine,
  interruptible,
  parseIntOption,
  withSimulationOptions,
} from "../cli-kit.ts";
import { paletteFor } from "../colour.ts";
import { commandLine } from "../command-line.ts";
import { createProgress } from "../progress.ts";

interface SimulateOptions {
  scenario: string;
  condition?: string;
  mediator: string;
  mediatorMode: string;
  mediatorFrequency?: string;
  mediatorMemory?: string;
  runs: string;
  withUnmediated?: boolean;
  budget: string;
  seed: string;
  concurrency: string;
  config?: string;
  emotion?: boolean;
  dryRun?: boolean;
}

/** Input and configuration errors become UserErrors (exit code 2 with the message). */
const asUserError = guardUserErrors(SimulationInputError, LlmConfigError);

/** Runs Ctrl-C stopped: those in flight (dropped, their answered calls cached) and those never started. */
interface Interrupted {
  inFlight: number;
  notStarted: number;
}

function describeSummary(summary: BatchSummary, interrupted: Interrupted): string {
  const { calls } = summary;
  const lines = [
    `runs: ${summary.stored.length} stored, ${summary.skipped.length} already stored (skipped), ${summary.failed.length} failed` +
      (summary.aborted.length > 0
        ? `; interrupted, not failed: ${interrupted.inFlight} dropped in flight, ${interrupted.notStarted} not started`
        : ""),
    `matched pairs stored: ${summary.pairsStored.length}`,
    `LLM calls: ${calls.made} made, ${calls.cached} from cache${calls.failed > 0 ? `, ${calls.failed} failed` : ""}`,
    `tokens (new calls): ${calls.promptTokens} prompt + ${calls.completionTokens} completion; cost $${calls.costUsd.toFixed(4)}`,
  ];
  for (const f of summary.failed) lines.push(`failed ${f.runId}: ${f.reason}`);
  return lines.join("\n");
}

/** --mediator-frequency and --mediator-memory (checked against the mode by planBatch). */
function socialOptions(opts: SimulateOptions): { frequency?: string; memory?: number } {
  const memory = opts.mediatorMemory;
  return {
    frequency: opts.mediatorFrequency,
    memory: memory === undefined ? undefined : parseIntOption("mediator-memory", memory, 1, 50),
  };
}

/** The mediator's mode as the dry run prints it: `generic`, or `social, frequency more, memory 8`. */
function modeText(plan: BatchPlan): string {
  const s = plan.mediatorSocial;
  return s ? `${plan.mediatorMode}, frequency ${s.frequency}, memory ${s.memory}` : plan.mediatorMode;
}

const MEDIATOR_MODE_HELP = "the mediator's prompts: generic, social or naive (docs/benchmark.md, Mediator modes)";

/** The summary, and after a stop the one "interrupted" line before it and the command that resumes after it. */
function reportBatch(summary: BatchSummary, interrupted: Interrupted, command: Command): void {
  const paint = paletteFor(process.stderr);
  const done = summary.stored.length + summary.skipped.length + summary.failed.length;
  if (summary.aborted.length > 0) console.error(paint.warning(interruptedLine(done, interrupted.inFlight)));
  console.log(describeSummary(summary, interrupted));
  const kept = "stored runs are kept and calls already answered come from the cache";
  const resume = `${kept}. Resume with: ${commandLine(command)}`;
  if (summary.aborted.length > 0) {
    console.error(paint.warning(resume));
    process.exitCode = EXIT_INTERRUPTED;
  } else if (summary.failed.length > 0) {
    console.error(paint.error(`${summary.failed.length} run(s) failed; ${resume}`));
    process.exitCode = 1;
  } else console.error(paint.success(`done: ${summary.stored.length} run(s) stored`));
}

export function registerSimulateCommands(program: Command): void {
  withSimulationOptions(
    program
      .command("simulate")
      .description(
        "simulate runs of a scenario-condition (parties in a fixed cycle, optional mediator) and store each complete run",
      )
      .requiredOption("--scenario <id>", "scenario id")
      .option("--condition <id>", "condition id (default: the scenario's general condition)")
      .requiredOption("--mediator <model>", 'mediator model (overrides the configured mediator model), or "none"')
      .option("--mediator-mode <mode>", MEDIATOR_MODE_HELP, "generic")
      .option("--mediator-frequency <f>", "mode social: how readily it steps in, less, normal or more (default normal)")
      .option("--mediator-memory <n>", "mode social: how many recent events its memory keeps (default 8)")
      .option("--runs <n>", "runs per setting", "1")
      .option(
        "--with-unmediated",
        "with a mediator model: also simulate each matched unmediated run and store the pair (default)",
      )
      .option("--no-with-unmediated", "with a mediator model: simulate mediated runs only")
      .option("--seed <n>", "base seed; each run's seed derives from it and the run index", String(DEFAULT_BASE_SEED)),
  )
    .option(
      "--emotion",
      "parties also rate how they feel each turn (0–100, higher = calmer) with a private reason, stored on the turn (the party-emotion prompt)",
    )
    .option("--dry-run", "print the runs that would be simulated and the most LLM calls they could make; call nothing")
    .action(async (opts: SimulateOptions, command: Command) => {
      const runs = parseIntOption("runs", opts.runs, 1, 10_000);
      const budget = parseIntOption("budget", opts.budget, 1, 1_000);
      const seed = parseIntOption("seed", opts.seed, 0);
      const concurrency = parseIntOption("concurrency", opts.concurrency, 1, 256);
      const config = asUserError(() => loadLlmConfig(resolveConfigPath(opts.config)));
      // The roles this batch calls must be configured (a --mediator model still needs the role's endpoint).
      asUserError(() => roleConfig(config, "party"));
      if (opts.mediator !== "none") asUserError(() => roleConfig(config, "mediator"));
      const db = await openDatabase();
      const tally = new UsageTally();
      const llm = asUserError(() => createLlm({ db, config, onCall: tally.record }));
      const batch = {
        db,
        llm,
        scenarioId: opts.scenario,
        conditionId: opts.condition,
        mediator: opts.mediator,
        mediatorMode: opts.mediatorMode,
        social: socialOptions(opts),
        runs,
        withUnmediated: opts.withUnmediated ?? true,
        budget,
        seed,
        emotion: opts.emotion ?? false,
        concurrency,
      };

      const plan = await asUserError.async(() => planBatch(batch));
      const pending = plan.runs.filter((r) => !r.stored);
      if (opts.dryRun) {
        const estimate = estimateBatch(plan);
        console.log(
          `condition ${plan.condition.id}${plan.conditionIsNew ? " (would be created)" : ""}; simulator ${plan.simulatorModel}; mediator ${plan.mediatorModel ?? "none"}${plan.mediatorModel ? ` (${modeText(plan)})` : ""}${plan.emotion ? "; self-reported emotion" : ""}`,
        );
        console.log(`runs: ${pending.length} to simulate, ${plan.runs.length - pending.length} already stored`);
        for (const r of pending) console.log(`  ${r.runId}`);
        console.log(
          `at most ${estimate.total} LLM calls (${estimate.partyCalls} party turns, ${estimate.mediatorWhenCalls} mediator decisions, ${estimate.mediatorHowCalls} mediator turns), before retries; cached calls cost nothing`,
        );
        return;
      }

      // Ctrl-C stops cleanly: runs in progress are abandoned (never half stored) and resume from the cache next time.
      const { controller, release } = interruptible();
      const progress = createProgress("simulate", plan.runs.length, { unit: "runs", eta: true, cost: tally.costUsd });
      const interrupted: Interrupted = { inFlight: 0, notStarted: 0 };
      try {
        const summary = await simulateBatch({
          ...batch,
          signal: controller.signal,
          onProgress: (e) => {
            if (e.type === "stored") progress.tick(`${e.runId}: ${e.outcome} after ${e.turns} turns`);
            else if (e.type === "skipped") progress.tick(`${e.runId}: already stored`);
            else if (e.type === "failed") progress.fail(`${e.runId}: ${e.reason}`);
            else if (e.inFlight) interrupted.inFlight += 1;
            else interrupted.notStarted += 1;
          },
        });
        progress.done();
        reportBatch(summary, interrupted, command);
      } finally {
        progress.done();
        release();
      }
    });
}

/**
 * `socrates fidelity pairs`: persona-fidelity A/B pairs simulated with one simulator backbone, stored as they complete.
 */
import type { Command } from "commander";
import { etaMs, formatDuration } from "../../app/domain/curation/progress.ts";
import { formatLevel } from "../../app/domain/probing/personas.ts";
import { BundleImportError } from "../../app/server/bundle-store.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import {
  generateFidelityPairs,
  type FidelityEvent,
  type FidelitySummary,
} from "../../app/server/fidelity/generate.server.ts";
import {
  DEFAULT_FIDELITY_SEED,
  estimateFidelity,
  FidelityInputError,
  pendingRuns,
  planFidelity,
  type FidelityPlan,
} from "../../app/server/fidelity/plan.server.ts";
import { createLlm } from "../../app/server/llm/client.server.ts";
import { LlmConfigError, loadLlmConfig, resolveConfigPath, roleConfig } from "../../app/server/llm/config.server.ts";
import { guardUserErrors, interruptible, parseIntOption, withSimulationOptions } from "../cli-kit.ts";
import { commandLine } from "../command-line.ts";
import { createProgress, type Progress } from "../progress.ts";

interface PairsOptions {
  simulator: string;
  pairs: string;
  scenarios?: string;
  seed: string;
  budget: string;
  concurrency: string;
  config?: string;
  emotion?: boolean;
  dryRun?: boolean;
}

/**
 * Bad input, configuration, or a stored record in the way (a fidelity condition stored with other content) exit with
 * code 2.
 */
const asUserError = guardUserErrors(FidelityInputError, LlmConfigError, BundleImportError);

/** How many pairs show the higher level on side A and on side B, and how far apart their levels are. */
function describeLevels(plan: FidelityPlan): string[] {
  const records = plan.pairs.filter((p) => p.stored).map((p) => p.record);
  const aHigher = records.filter((r) => r.level_a > r.level_b).length;
  const gaps = new Map<number, number>();
  for (const r of records) {
    const gap = Math.round(Math.abs(r.level_a - r.level_b) * 3); // in thirds: 1, 2 or 3
    gaps.set(gap, (gaps.get(gap) ?? 0) + 1);
  }
  const spread = [...gaps]
    .sort(([a], [b]) => a - b)
    .map(([gap, n]) => `${formatLevel(gap / 3)} apart in ${n} pair${n === 1 ? "" : "s"}`)
    .join(", ");
  return [
    `balance: A higher in ${aHigher}, B higher in ${records.length - aHigher}`,
    `level differences: ${spread || "none"}`,
  ];
}

function describeSummary(summary: FidelitySummary): string {
  const { calls } = summary;
  const lines = [
    `pairs: ${summary.pairsStored.length} stored, ${summary.pairsAlreadyStored.length} already stored, ${summary.pairsFailed.length} failed`,
    `runs: ${summary.runsStored.length} stored, ${summary.failed.length} failed${summary.aborted.length > 0 ? `, ${summary.aborted.length} interrupted` : ""}; fidelity conditions created: ${summary.conditionsCreated}`,
    ...describeLevels(summary.plan),
    `LLM calls: ${calls.made} made, ${calls.cached} from cache${calls.failed > 0 ? `, ${calls.failed} failed` : ""}; cost $${calls.costUsd.toFixed(4)}`,
  ];
  for (const f of summary.failed) lines.push(`failed ${f.runId}: ${f.reason}`);
  return lines.join("\n");
}

function printDryRun(plan: FidelityPlan): void {
  const pending = pendingRuns(plan);
  const estimate = estimateFidelity(plan);
  console.log(
    `simulator ${plan.simulatorModel}; seed ${plan.seed}; turn budget ${plan.budget}${plan.emotion ? "; self-reported emotion" : ""}`,
  );
  console.log(
    `pairs: ${plan.pairs.filter((p) => !p.stored).length} to store, ${plan.pairs.filter((p) => p.stored).length} already stored; fidelity conditions to create: ${plan.newConditions.length}`,
  );
  for (const p of plan.pairs.filter((p) => !p.stored)) {
    const r = p.record;
    console.log(
      `  ${r.id}: ${r.scenario_id} ${r.target_party} A ${formatLevel(r.level_a)} vs B ${formatLevel(r.level_b)}, others ${formatLevel(r.opponent_level!)}`,
    );
  }
  console.log(
    `runs: ${pending.length} to simulate; at most ${estimate.total} LLM calls before retries; cached calls cost nothing`,
  );
}

/** Ticks the bar per run with the cost so far and an ETA at this batch's pace. */
function progressHandler(progress: Progress, toSimulate: number): (e: FidelityEvent) => void {
  const started = Date.now();
  let simulated = 0;
  const status = (costUsd: number) => {
    const eta = etaMs({
      elapsedMs: Date.now() - started,
      acceptedThisRun: simulated,
      remaining: toSimulate - simulated,
    });
    return `cost $${costUsd.toFixed(4)}; ETA ${eta === null ? "unknown yet" : formatDuration(eta)}`;
  };
  return (e) => {
    if (e.type === "pair") return;
    if (e.type === "skipped") return progress.tick(`${e.runId}: already stored`);
    if (e.type === "aborted") return progress.fail(`${e.runId}: interrupted`);
    simulated += 1;
    if (e.type === "failed") return progress.fail(`${e.runId}: ${e.reason}`);
    progress.tick(`${e.runId}: ${e.outcome} after ${e.turns} turns; ${status(e.calls.costUsd)}`);
  };
}

export function registerFidelityCommands(program: Command): void {
  const fidelity = program
    .command("fidelity")
    .description("persona fidelity: A/B pairs of runs that differ only in one party's reactiveness level");
  withSimulationOptions(
    fidelity
      .command("pairs")
      .description(
        "draw persona-fidelity pairs (same scenario, target, opponents and topics; two target levels from {0, 1/3, 2/3, 1}; the others at a reference level), simulate both runs with one simulator backbone and store them as A/B pairs; resumable",
      )
      .requiredOption(
        "--simulator <model>",
        "the simulator backbone: the model every party plays (overrides the configured party model)",
      )
      .requiredOption("--pairs <n>", "pairs to draw (pair i is the same for any larger n)")
      .option("--scenarios <ids>", "comma-separated scenario ids to draw from (default: every stored scenario)")
      .option("--seed <n>", "seed of the draw", String(DEFAULT_FIDELITY_SEED)),
  )
    .option(
      "--emotion",
      "parties also rate how they feel each turn (0–100) with a private reason, so the automatic fidelity proxy can read the runs' self-reported emotion without the emotion judge",
    )
    .option(
      "--dry-run",
      "print the pairs that would be drawn and the most LLM calls their runs could make; call nothing, store nothing",
    )
    .action(async (opts: PairsOptions, command: Command) => {
      const batch = {
        simulator: opts.simulator,
        pairs: parseIntOption("pairs", opts.pairs, 1, 10_000),
        scenarios: opts.scenarios
          ?.split(",")
          .map((s) => s.trim())
          .filter(Boolean),
        seed: parseIntOption("seed", opts.seed, 0),
        budget: parseIntOption("budget", opts.budget, 1, 1_000),
        concurrency: parseIntOption("concurrency", opts.concurrency, 1, 256),
        emotion: opts.emotion ?? false,
      };
      const config = asUserError(() => loadLlmConfig(resolveConfigPath(opts.config)));
      asUserError(() => roleConfig(config, "party"));
      const db = await openDatabase();
      const llm = asUserError(() => createLlm({ db, config }));
      const plan = await asUserError.async(() => planFidelity({ db, llm, ...batch }));
      if (opts.dryRun) return printDryRun(plan);

      // Ctrl-C stops cleanly: runs in progress are abandoned (never half stored) and resume from the cache next time.
      const { controller, release } = interruptible();
      const progress = createProgress("fidelity", plan.pairs.length * 2);
      try {
        const summary = await asUserError.async(() =>
          generateFidelityPairs({
            db,
            llm,
            ...batch,
            signal: controller.signal,
            onEvent: progressHandler(progress, pendingRuns(plan).length),
          }),
        );
        progress.done();
        console.log(describeSummary(summary));
        if (summary.pairsFailed.length > 0) {
          const why = summary.aborted.length > 0 ? "interrupted" : `${summary.pairsFailed.length} pair(s) not stored`;
          console.error(`${why}; stored runs and pairs are kept. Resume with: ${commandLine(command)}`);
          process.exitCode = 1;
        }
      } finally {
        progress.done();
        release();
      }
    });
}

/**
 * `socrates probe`: expand scenarios into the 15 conditions (strategy, parties, history, emotion, culture); resumable,
 * idempotent.
 */
import type { Command } from "commander";
import { CONDITION_AXES, type ConditionAxis } from "../../app/domain/bundle.ts";
import { formatDuration } from "../../app/domain/curation/progress.ts";
import type { Llm } from "../../app/domain/llm/types.ts";
import { openDatabase, type Db } from "../../app/server/db.server.ts";
import { createLlm, type LlmCallEvent } from "../../app/server/llm/client.server.ts";
import { LlmConfigError, loadLlmConfig, resolveConfigPath, roleConfig } from "../../app/server/llm/config.server.ts";
import { scenarioIds } from "../../app/server/models/scenario.server.ts";
import {
  planProbe,
  probe,
  ProbeInputError,
  type PlannedCondition,
  type ProbeEvent,
  type ProbeSummary,
} from "../../app/server/probing/probe.server.ts";
import { guardUserErrors, interruptible, UserError } from "../cli-kit.ts";
import { commandLine } from "../command-line.ts";
import { createProgress } from "../progress.ts";

interface ProbeOptions {
  scenario?: string;
  all?: boolean;
  conditions: string;
  config?: string;
  dryRun?: boolean;
}

const asUserError = guardUserErrors(LlmConfigError, ProbeInputError);
const ALIASES: Record<string, ConditionAxis> = { "three-party": "parties" };

export function parseAxes(raw: string): ConditionAxis[] {
  if (raw.trim() === "all") return [...CONDITION_AXES];
  const names = raw
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  const axes = names.map((n) => ALIASES[n] ?? n);
  const unknown = names.filter((_, i) => !(CONDITION_AXES as readonly string[]).includes(axes[i]));
  if (unknown.length > 0 || names.length === 0) {
    throw new UserError(
      `--conditions: unknown axis ${unknown.join(", ") || "(none)"}; use "all" or a comma-separated list of ${CONDITION_AXES.join(", ")} (three-party = parties)`,
    );
  }
  return [...new Set(axes as ConditionAxis[])];
}

async function scenariosOf(db: Db, opts: ProbeOptions): Promise<string[]> {
  if (opts.all === Boolean(opts.scenario))
    throw new UserError("name one scenario with --scenario ID, or all of them with --all");
  return opts.all ? await scenarioIds(db) : [opts.scenario!];
}

function printPlan(plan: PlannedCondition[]): void {
  const pending = plan.filter((c) => !c.stored);
  for (const id of [...new Set(plan.map((c) => c.scenarioId))]) {
    const own = plan.filter((c) => c.scenarioId === id);
    const todo = own.filter((c) => !c.stored);
    console.log(
      `${id}: ${todo.length} to create${todo.length > 0 ? ` (${todo.map((c) => `${c.axis}:${c.variant}`).join(", ")})` : ""}, ${own.length - todo.length} already stored`,
    );
  }
  const parties = pending.filter((c) => c.axis === "parties").length;
  const history = pending.filter((c) => c.axis === "history").length;
  console.log(
    `writer calls: ${2 * parties + history} (+1 per repair; strategy, emotion and culture call nothing); nothing was called`,
  );
}

/** The writer, when a writer condition is still to be made; template axes never need a configuration. */
function writerLlm(
  db: Db,
  plan: PlannedCondition[],
  configFlag: string | undefined,
  onCall: (e: LlmCallEvent) => void,
): Llm | null {
  if (!plan.some((c) => c.writer && !c.stored)) return null;
  try {
    const config = loadLlmConfig(resolveConfigPath(configFlag));
    roleConfig(config, "writer");
    return createLlm({ db, config, onCall });
  } catch (err) {
    if (err instanceof LlmConfigError)
      throw new UserError(`the parties and history conditions call the writer: ${err.message}`);
    throw err;
  }
}

interface Tally {
  made: number;
  cached: number;
  failed: number;
  costUsd: number;
}

function countCall(tally: Tally, e: LlmCallEvent): void {
  if (e.cached) tally.cached += 1;
  else if (e.ok) tally.made += 1;
  else tally.failed += 1;
  tally.costUsd += e.cached ? 0 : e.usage.costUsd;
}

/** A progress step per condition, with the cost so far and the time left at this run's pace. */
function reporter(total: number, tally: Tally): { onEvent: (e: ProbeEvent) => void; done: () => void } {
  const progress = createProgress("probe", total);
  const started = Date.now();
  let done = 0;
  const note = (text: string) => {
    done += 1;
    const eta = formatDuration(((Date.now() - started) / done) * (total - done));
    return `${text}; cost $${tally.costUsd.toFixed(4)}; ETA ${eta}`;
  };
  const onEvent = (e: ProbeEvent) => {
    if (e.type === "created") progress.tick(note(`${e.condition.id}: created`));
    else if (e.type === "already-stored") progress.tick(note(`${e.condition.id}: already stored`));
    else progress.fail(note(`${e.condition.id}: ${e.type}: ${e.reason}`));
  };
  return { onEvent, done: () => progress.done() };
}

function printSummary(summary: ProbeSummary, tally: Tally): void {
  if (
    summary.created.length === 0 &&
    summary.rejected.length === 0 &&
    summary.failed.length === 0 &&
    !summary.stopped
  ) {
    console.log(
      `nothing to do: all ${summary.alreadyStored.length} requested conditions are already stored; nothing was changed`,
    );
  }
  console.log(
    `created ${summary.created.length}, already stored ${summary.alreadyStored.length}, rejected ${summary.rejected.length}${summary.failed.length > 0 ? `, failed ${summary.failed.length}` : ""}`,
  );
  for (const r of summary.rejected) console.log(`rejected ${r.id}: ${r.reason}`);
  for (const f of summary.failed) console.log(`failed ${f.id} (run again to retry): ${f.reason}`);
  console.log(
    `LLM calls: ${tally.made} made, ${tally.cached} from cache${tally.failed > 0 ? `, ${tally.failed} failed` : ""}; cost $${tally.costUsd.toFixed(4)}`,
  );
}

export function registerProbeCommands(program: Command): void {
  program
    .command("probe")
    .description(
      "expand scenarios into the 15 benchmark conditions (strategy, three-party, history, emotion, culture) and store them; resumable, idempotent",
    )
    .option("--scenario <id>", "the scenario to expand")
    .option("--all", "expand every stored scenario")
    .option(
      "--conditions <list>",
      `axes: "all" or a comma-separated list of ${CONDITION_AXES.join(", ")} (three-party = parties)`,
      "all",
    )
    .option(
      "--config <path>",
      "LLM configuration, needed only for parties and history (default: SOCRATES_CONFIG or ./socrates.config.json)",
    )
    .option("--dry-run", "list what would be created and what is stored already; call nothing, store nothing")
    .action(async (opts: ProbeOptions, command: Command) => {
      const axes = parseAxes(opts.conditions);
      const db = await openDatabase();
      const plan = await asUserError.async(async () => await planProbe(db, await scenariosOf(db, opts), axes));
      if (opts.dryRun) return printPlan(plan);

      const tally: Tally = { made: 0, cached: 0, failed: 0, costUsd: 0 };
      const llm = writerLlm(db, plan, opts.config, (e) => countCall(tally, e));
      const { controller, release } = interruptible();
      const report = reporter(plan.length, tally);
      try {
        const summary = await asUserError.async(() =>
          probe({ db, llm, plan, onEvent: report.onEvent, signal: controller.signal }),
        );
        report.done();
        printSummary(summary, tally);
        if (summary.failed.length > 0 || summary.stopped) {
          console.error(
            `${summary.stopped ? "interrupted" : `${summary.failed.length} condition(s) failed`}; what is stored is kept. Resume with: ${commandLine(command)}`,
          );
          process.exitCode = 1;
        }
      } finally {
        release();
      }
    });
}

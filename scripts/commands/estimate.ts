/**
 * `socrates estimate`: each mediator's human-scale score from the judge on every run and the
 * experts' labels on some (issue 33): judge-only, experts-only and PPI++ with 95% CIs, per domain
 * and overall, and the labels still needed for a target half-width (docs/estimation.md).
 */
import type { Command } from "commander";
import {
  domainName,
  isProvisional,
  PROVISIONAL_NOTE,
  labelledOfRuns,
  labelsText,
  mediatorName,
  plusMinus,
  QUANTITY_LABELS,
} from "../../app/domain/estimation/calibrated-format.ts";
import { RUN_QUANTITIES, type RunQuantity } from "../../app/domain/estimation/run-quantities.ts";
import { BenchmarkPlanError } from "../../app/domain/benchmark/plan.ts";
import { CalibrationInputError, calibratedEstimates } from "../../app/server/estimation/calibrated.server.ts";
import type { CalibratedEstimates } from "../../app/domain/estimation/calibrated.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { guardUserErrors, printJson, UserError } from "../cli-kit.ts";
import { loadPlan, parseStudyIds } from "../plan-options.ts";

interface EstimateOptions {
  plan?: string;
  hash?: string;
  study?: string[];
  quantity?: string;
  target: string;
  json?: boolean;
}

const asUserError = guardUserErrors(BenchmarkPlanError, CalibrationInputError);

function parseQuantities(raw: string | undefined): RunQuantity[] {
  if (raw === undefined) return [...RUN_QUANTITIES];
  if (!(RUN_QUANTITIES as readonly string[]).includes(raw))
    throw new UserError(`--quantity: expected ${RUN_QUANTITIES.join(" or ")}, got "${raw}"`);
  return [raw as RunQuantity];
}

function parseTarget(raw: string): number {
  const n = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(n) || n <= 0 || n > 1)
    throw new UserError(`--target: expected a half-width above 0 and at most 1 (the 0–1 scale), got "${raw}"`);
  return n;
}

const HEADER = ["mediator", "domain", "labelled / runs", "judge-only", "human-only ±", "PPI++ ±", "labels to target"];

/** Columns padded to their widest cell. */
function aligned(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows
    .map((r) =>
      r
        .map((cell, i) => cell.padEnd(widths[i]))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

function printTables(result: CalibratedEstimates): void {
  const { settings } = result;
  console.log(
    `plan "${result.planName}" (${result.planHash}) · evaluator ${result.evaluator} (s0 = ${result.s0}) · studies ${result.studyIds.join(", ")} · ${result.runs} runs of the main grid · ${Math.round((1 - settings.alpha) * 100)}% CIs · target ±${settings.target}`,
  );
  for (const quantity of settings.quantities) {
    const rows = result.rows.filter((r) => r.quantity === quantity);
    // An active study's design gives its own column; other studies have none.
    const active = rows.some((r) => r.active);
    console.log(`\n${QUANTITY_LABELS[quantity]} (0–1)`);
    console.log(
      aligned([
        active ? [...HEADER.slice(0, 6), "active ±", HEADER[6]] : HEADER,
        ...rows.map((r) => [
          mediatorName(r),
          domainName(r),
          labelledOfRuns(r),
          r.judgeOnly ? r.judgeOnly.estimate.toFixed(3) : "—",
          plusMinus(r.humanOnly),
          plusMinus(r.ppi),
          ...(active ? [plusMinus(r.active)] : []),
          labelsText(r.labelsToTarget.ppi),
        ]),
      ]),
    );
    const estimates = rows.flatMap((r) => [r.humanOnly, r.ppi, r.active]);
    if (estimates.some((e) => e && isProvisional(e))) console.log(PROVISIONAL_NOTE);
    const incomplete = rows.filter((r) => r.domain !== null).reduce((s, r) => s + r.incomplete, 0);
    if (incomplete > 0)
      console.log(`${incomplete} run${incomplete === 1 ? "" : "s"} with incomplete expert labels: counted, not used`);
  }
  if (result.labelledOutsidePlan > 0)
    console.log(
      `\n${result.labelledOutsidePlan} runs the studies label are not runs of this plan's main grid: not used`,
    );
}

export function registerEstimateCommand(program: Command): void {
  program
    .command("estimate")
    .description(
      "each mediator's human-scale score from the judge and expert labels: judge-only, human-only and PPI++ with 95% CIs (docs/estimation.md)",
    )
    .option("--plan <file>", "the benchmark plan (benchmark.json)")
    .option("--hash <hash>", "a plan `benchmark run` recorded in the database, by its hash, instead of --plan")
    .option("--study <ids...>", "the expert snippet-consensus studies whose labels are the human values")
    .option("--quantity <q>", `${RUN_QUANTITIES.join(" or ")} (default: both)`)
    .option("--target <half-width>", "the 95% CI half-width the last column aims at, on the 0–1 scale", "0.05")
    .option("--json", "print the estimates and their settings as JSON")
    .addHelpText(
      "after",
      "\nExample:\n  npx socrates estimate --plan benchmark.json --study 4 --quantity outcome --target 0.05\n\nRows per mediator × domain, then the mediator over all domains (stratified by domain). Runs whose\nexpert labels are incomplete are counted, never imputed. Exit code 2: bad input (a study that is\nnot an expert snippet-consensus study, an unknown plan hash, an option out of range).",
    )
    .action(async (opts: EstimateOptions) => {
      const quantities = parseQuantities(opts.quantity);
      const target = parseTarget(opts.target);
      const studyIds = parseStudyIds(opts.study);
      if (studyIds === undefined) throw new UserError("--study <ids...> is required: the expert studies to read");
      const db = await openDatabase();
      const loaded = await loadPlan(db, opts);
      const result = await asUserError.async(() =>
        calibratedEstimates(db, { loaded, studyIds, settings: { quantities, target } }),
      );
      if (opts.json) printJson(result);
      else printTables(result);
    });
}

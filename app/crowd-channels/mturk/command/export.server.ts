/**
 * `socrates mturk export`: write a HIT batch (template, input CSV, HIT settings, qualification test) for MTurk's
 * requester site.
 */
import type { Command } from "commander";
import { isAbsolute, relative } from "node:path";
import { openDatabase } from "../../../server/db.server.ts";
import { ServiceError } from "../../../server/http/errors.server.ts";
import { defaultExportDir, exportBatch, type ExportSummary } from "../export.server.ts";
import { describeLabelOrder } from "../../../domain/crowd/missing-labels.ts";
import { TemplateError } from "../../../server/templates.server.ts";
import { parseIntOption, UserError } from "../../../../scripts/cli-kit.ts";
import { addHitOptions, hitOverrides, type HitOptionValues } from "./hit-options.server.ts";

const FILE_NOTES: Record<keyof ExportSummary["files"], string> = {
  template: "the HIT layout: paste into the project's Design Layout (Source)",
  inputCsv: "one row per HIT: upload it when you publish the batch",
  hitConfig: "title, reward, assignments, durations and qualification requirements to set on the project",
  qualificationTest: "the English reading test as a QuestionForm (create the qualification type with it)",
  answerKey: "the test's answer key, so MTurk scores it",
};

const usd = (n: number) => `$${n.toFixed(2)}`;

/** A path as the user typed it: relative below the working directory, absolute elsewhere. */
function shown(path: string): string {
  const rel = relative(process.cwd(), path);
  return rel === "" ? "." : rel.startsWith("..") || isAbsolute(rel) ? path : rel;
}

/** One line per input CSV: what to upload with how many assignments per task. */
function batchLines(summary: ExportSummary, width: number): string[] {
  return summary.batches.map(
    (b) =>
      `  ${shown(b.file).padEnd(width)} ${b.rows} HIT${b.rows === 1 ? "" : "s"}: upload as one batch with ${b.assignmentsPerHit} assignment${b.assignmentsPerHit === 1 ? "" : "s"} per task`,
  );
}

export function describeExport(summary: ExportSummary): string {
  const e = summary.estimate;
  const where = shown(summary.outDir);
  const width = where.length + 30;
  const others = (Object.keys(FILE_NOTES) as (keyof typeof FILE_NOTES)[]).filter((k) => k !== "inputCsv");
  const lines = [
    `study ${summary.studyId} (${summary.studyType}, "${summary.studyName}"): wrote ${summary.rows} HIT${summary.rows === 1 ? "" : "s"} to ${where}/`,
    `left out ${summary.leftOut} item${summary.leftOut === 1 ? "" : "s"}: ${summary.order.complete} already hold ${summary.settings.assignmentsPerHit === 1 ? "their" : "all"} counted labels${summary.order.awaiting ? `, ${summary.order.awaiting} wait only on pending labels` : ""}`,
    "files:",
    ...others.map((k) => `  ${shown(summary.files[k]).padEnd(width)} ${FILE_NOTES[k]}`),
    ...batchLines(summary, width),
    `estimated cost: ${describeLabelOrder(summary.order)}: ${e.assignments} × ${usd(e.rewardUsd)} = ${usd(e.rewardsTotalUsd)} rewards + ${usd(e.feesTotalUsd)} MTurk fees = ${usd(e.totalUsd)} total`,
    `implied hourly wage: ${usd(e.hourlyWageUsd)}/h at ${Math.round(e.secondsPerAssignment)} s per assignment (${e.secondsSource})`,
  ];
  return lines.join("\n");
}

export function registerMturkExport(mturk: Command): void {
  const command = mturk
    .command("export")
    .description(
      "write a HIT batch for Mechanical Turk's requester site: template.html, input.csv, hit-config.json and the qualification test",
    )
    .requiredOption("--study <id>", "the crowd study to export (open, with items still short of labels)")
    .option("--out <dir>", "output folder, new or empty (default: exports/mturk/study-<id>-<YYYYMMDD-HHMMSS>, UTC)");
  addHitOptions(command);
  command.addHelpText(
    "after",
    `
One row of input.csv per study item still missing labels, ordering only what is missing: the
study's labels per item (k) minus the item's counted labels and its pending ones (answers whose
worker MTurk or Prolific has not confirmed yet). Items already at k are left out. When items miss
different numbers of labels, each number gets its own file, input-<n>-assignments.csv, to upload
as its own batch with n assignments per task. Gold items are included and look like any other
item. The header is exactly the template's \${variable}s; every value is HTML with text escaped.

The cost estimate uses the study's median seconds per label (or --seconds-per-item) and MTurk's
fees; a reward below the U.S. federal minimum wage at that pace is refused unless --force.
Results come back with \`socrates mturk import\`.

Example:
  npx socrates mturk export --study 2 --reward 0.50 --out exports/mturk/pilot`,
  );
  command.action(async (opts: HitOptionValues & { study: string; out?: string }) => {
    const studyId = parseIntOption("study", opts.study, 1);
    const overrides = hitOverrides(opts);
    const now = new Date();
    let summary: ExportSummary;
    try {
      summary = await exportBatch(await openDatabase(), studyId, {
        outDir: opts.out ?? defaultExportDir(studyId, now),
        overrides,
        force: opts.force ?? false,
        now,
      });
    } catch (err) {
      if (err instanceof ServiceError) {
        const details = err.problems.map((p) => `\n  ${p.path}: ${p.message}`).join("");
        throw new UserError(`mturk export refused, nothing was written: ${err.message}${details}`);
      }
      if (err instanceof TemplateError)
        throw new UserError(`mturk export refused, nothing was written: a template is broken:\n${err.message}`);
      throw err;
    }
    console.log(describeExport(summary));
    for (const warning of summary.warnings) process.stderr.write(`warning: ${warning}\n`);
  });
}

/** `socrates mturk export`: write a HIT batch (template, input CSV, HIT settings, qualification test) for MTurk's requester site. */
import type { Command } from "commander";
import { isAbsolute, relative } from "node:path";
import { openDatabase } from "../../../app/server/db.server.ts";
import { ServiceError } from "../../../app/server/http/errors.server.ts";
import { defaultExportDir, exportBatch, type ExportSummary } from "../../../app/server/crowd/mturk-export.server.ts";
import { TemplateError } from "../../../app/server/templates.server.ts";
import { parseIntOption, UserError } from "../../cli-kit.ts";
import { addHitOptions, hitOverrides, type HitOptionValues } from "./hit-options.ts";

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

function describe(summary: ExportSummary): string {
  const e = summary.estimate;
  const where = shown(summary.outDir);
  const lines = [
    `study ${summary.studyId} (${summary.studyType}, "${summary.studyName}"): wrote ${summary.rows} HIT${summary.rows === 1 ? "" : "s"} to ${where}/`,
    `left out ${summary.leftOut} item${summary.leftOut === 1 ? "" : "s"} that already have ${summary.settings.assignmentsPerHit} counted label${summary.settings.assignmentsPerHit === 1 ? "" : "s"}`,
    "files:",
    ...(Object.keys(FILE_NOTES) as (keyof typeof FILE_NOTES)[]).map((k) => `  ${shown(summary.files[k]).padEnd(where.length + 24)} ${FILE_NOTES[k]}`),
    `estimated cost: ${e.assignments} assignments (${e.hits} HITs × ${summary.settings.assignmentsPerHit}) × ${usd(e.rewardUsd)} = ${usd(e.rewardsTotalUsd)} rewards + ${usd(e.feesTotalUsd)} MTurk fees = ${usd(e.totalUsd)} total`,
    `implied hourly wage: ${usd(e.hourlyWageUsd)}/h at ${Math.round(e.secondsPerAssignment)} s per assignment (${e.secondsSource})`,
  ];
  return lines.join("\n");
}

export function registerMturkExport(mturk: Command): void {
  const command = mturk
    .command("export")
    .description("write a HIT batch for Mechanical Turk's requester site: template.html, input.csv, hit-config.json and the qualification test")
    .requiredOption("--study <id>", "the crowd study to export (open, with items still short of labels)")
    .option("--out <dir>", "output folder, new or empty (default: exports/mturk/study-<id>-<YYYYMMDD-HHMMSS>, UTC)");
  addHitOptions(command);
  command.addHelpText(
    "after",
    `
One row of input.csv per study item that still has fewer latest labels than the study's labels
per item (the HIT's assignments); gold items are included and look like any other item. The
header is exactly the template's \${variable}s; every value is HTML built with all text escaped.

The cost estimate uses the study's median seconds per label (or --seconds-per-item) and MTurk's
fees; a reward below the U.S. federal minimum wage at that pace is refused unless --force.
Results come back with \`socrates mturk import\`.

Example:
  npx socrates mturk export --study 2 --reward 0.50 --out exports/mturk/pilot`,
  );
  command.action((opts: HitOptionValues & { study: string; out?: string }) => {
    const studyId = parseIntOption("study", opts.study, 1);
    const overrides = hitOverrides(opts);
    const now = new Date();
    let summary: ExportSummary;
    try {
      summary = exportBatch(openDatabase(), studyId, { outDir: opts.out ?? defaultExportDir(studyId, now), overrides, force: opts.force ?? false, now });
    } catch (err) {
      if (err instanceof ServiceError) {
        const details = err.problems.map((p) => `\n  ${p.path}: ${p.message}`).join("");
        throw new UserError(`mturk export refused, nothing was written: ${err.message}${details}`);
      }
      if (err instanceof TemplateError) throw new UserError(`mturk export refused, nothing was written: a template is broken:\n${err.message}`);
      throw err;
    }
    console.log(describe(summary));
    for (const warning of summary.warnings) process.stderr.write(`warning: ${warning}\n`);
  });
}

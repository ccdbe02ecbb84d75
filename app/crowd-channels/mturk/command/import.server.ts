/** `socrates mturk import`: MTurk's batch results file into labels, and the review file to upload back. */
import type { Command } from "commander";
import { writeFileSync } from "node:fs";
import { basename, dirname, extname, join } from "node:path";
import { ServiceError } from "../../../server/http/errors.server.ts";
import { importMturkResults, MturkImportError, type MturkImportResult } from "../import.server.ts";
import { checkpointWal, openDatabase } from "../../../server/db.server.ts";
import { parseIntOption, readTextFile, UserError } from "../../../../scripts/cli-kit.ts";

/** `Batch_123_batch_results.csv` → `Batch_123_batch_results.review.csv`, in the same folder. */
export function defaultReviewPath(file: string): string {
  const ext = extname(file);
  return join(dirname(file), `${basename(file, ext)}.review${ext || ".csv"}`);
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function describeImport({ summary: s }: MturkImportResult): string[] {
  const verb = s.dryRun ? "would store" : "stored";
  const lines = [
    [
      `${plural(s.rows, "assignment")} read: ${verb} ${plural(s.stored, "new label")} and ${plural(s.revised, "revision")}; ${s.unchanged} already imported and unchanged;`,
      `${s.rejectedSkipped} rejected on MTurk (recorded, answers not used); ${plural(s.statusUpdated, "assignment")} with a new status; ${plural(s.workersCreated, "new worker")}`,
    ].join(" "),
  ];
  if (s.confirmed)
    lines.push(
      `confirmed: ${plural(s.confirmed, "pending answer")} from the task page, now reported by MTurk for the same worker and HIT`,
    );
  if (s.surplus) {
    lines.push(
      `surplus: ${plural(s.surplus, "label")} beyond the item's labels per item (k) ${s.dryRun ? "would be" : s.surplus === 1 ? "was" : "were"} stored as surplus, left out of the statistics unless the study counts surplus`,
    );
  }
  for (const m of s.mismatched) lines.push(`not confirmed: line ${m.line}: ${m.message}`);
  return lines;
}

export function registerMturkImport(mturk: Command): void {
  mturk
    .command("import")
    .description(
      "import MTurk's batch results CSV into a study (all-or-nothing; importing the same file again changes nothing) and write the approve/reject file to upload back",
    )
    .requiredOption(
      "--study <id>",
      "the crowd study the batch was exported from (every row's Input.study_id must match)",
    )
    .requiredOption(
      "--file <path>",
      "the results file from the requester site (Manage → Results → Download CSV), e.g. Batch_123_batch_results.csv",
    )
    .option(
      "--review-out <path>",
      "where to write the review file (default: next to the results file, <name>.review.csv)",
    )
    .option("--dry-run", "check every row and report what would be stored, writing nothing (no labels, no review file)")
    .addHelpText(
      "after",
      `
Each row is one assignment. Workers become crowd annotators keyed by WorkerId; Rejected
assignments are recorded but their answers are not used; time on task is WorkTimeInSeconds.
A bad row (unknown item, missing or malformed Answer.taskAnswers, an answer the task would
refuse) is reported with its line number and nothing is imported; the exit code is then 2.
The study's labels per item (k) is a hard cap: a row for an item that already has k counted
labels is stored as surplus, counted in the output and left out of the statistics unless the
study counts surplus (the dashboard's "Label status" panel).

The review file is the results file with Approve ("x") or Reject (the reason the worker reads)
filled in for assignments still waiting for review: work that failed a gold item, or by a worker
flagged on gold items, is rejected. Upload it under Manage → Results → Upload CSV.`,
    )
    .action(async (opts: { study: string; file: string; reviewOut?: string; dryRun?: boolean }) => {
      const studyId = parseIntOption("study", opts.study, 1);
      const text = readTextFile(opts.file);
      let result: MturkImportResult;
      const db = await openDatabase();
      try {
        result = await importMturkResults(db, studyId, { text, fileName: opts.file, dryRun: opts.dryRun });
      } catch (err) {
        if (err instanceof MturkImportError) throw new UserError(err.message);
        if (err instanceof ServiceError) throw new UserError(err.message);
        throw err;
      }
      // A bulk import: hand back the write-ahead log's space (best effort).
      if (!opts.dryRun) checkpointWal(db);
      for (const line of describeImport(result)) console.log(line);
      const { review } = result;
      const counts = `${plural(review.approvals, "approval")}, ${plural(review.rejections, "rejection")}, ${review.untouched} already reviewed on MTurk`;
      if (opts.dryRun) {
        console.log(`dry run: nothing was written; the review file would hold ${counts}`);
        return;
      }
      const reviewPath = opts.reviewOut ?? defaultReviewPath(opts.file);
      try {
        writeFileSync(reviewPath, review.csv);
      } catch (err) {
        throw new UserError(
          `${reviewPath}: cannot write the review file (${(err as NodeJS.ErrnoException).code ?? String(err)}); the import itself is stored, run it again to rewrite the file`,
        );
      }
      console.log(`review file: ${reviewPath} (${counts}); upload it on the requester site under Manage → Results`);
    });
}

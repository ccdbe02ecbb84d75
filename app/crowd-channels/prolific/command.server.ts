/** `socrates prolific …`: confirm Prolific sessions from the study's submissions export. */
import type { Command } from "commander";
import { ServiceError } from "../../server/http/errors.server.ts";
import { importProlificExport, ProlificImportError, type ProlificImportSummary } from "./import.server.ts";
import { checkpointWal, openDatabase } from "../../server/db.server.ts";
import { PROLIFIC_FOLDER } from "./descriptor.ts";
import { guardUserErrors, parseIntOption, readTextFile } from "../../../scripts/cli-kit.ts";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The summary, one fact per line. */
export function describeProlificImport(s: ProlificImportSummary): string {
  const verb = s.dryRun ? "would confirm" : "confirmed";
  const pending = Object.entries(s.stayPending).map(([status, n]) => `${n} ${status}`);
  const lines = [
    `${plural(s.rows, "row")} read: ${verb} ${plural(s.confirmedSessions, "session")}; ${plural(s.labelsCounted, "label")} counted, ${s.labelsSurplus} surplus (the item already had its labels); ${s.unchanged} unchanged`,
    `still pending: ${pending.length ? pending.join(", ") : "none listed"}${s.codeMismatch ? `; ${s.codeMismatch} with another completion code` : ""}`,
    `${plural(s.unknownSessions, "row")} not matching any stored session; ${plural(s.statusUpdated, "session")} with Prolific's review outcome recorded`,
  ];
  if (s.rejectedAfterConfirming)
    lines.push(
      `${plural(s.rejectedAfterConfirming, "session")} confirmed earlier now rejected on Prolific: their labels still count; review them on the dashboard`,
    );
  for (const m of s.mismatched)
    lines.push(`row ${m.line} (submission ${m.submissionId}) does not match the stored session: ${m.reason}`);
  if (s.dryRun) lines.push("dry run: nothing was written");
  return lines.join("\n");
}

export function registerProlificCommands(program: Command): void {
  const prolific = program.command(PROLIFIC_FOLDER.command.name).description(PROLIFIC_FOLDER.command.description);
  prolific
    .command("import")
    .description(
      "confirm Prolific sessions listed in the study's submissions export (all-or-nothing; importing the same file again changes nothing)",
    )
    .argument(
      "<file>",
      "the submissions export from Prolific (the study's Submissions → Download CSV), e.g. prolific_export_60aa….csv",
    )
    .requiredOption("--study <id>", "the crowd study the Prolific participants took part in")
    .option(
      "--prolific-study <STUDY_ID>",
      "Prolific's id of the exported study, when the file has no study column and the sessions name several",
    )
    .option("--dry-run", "check every row and report what would change, writing nothing")
    .addHelpText(
      "after",
      `
Labels from Prolific participants are stored pending, because the study URL Prolific opens is
not signed: anyone could make up a PROLIFIC_PID. A row of the export confirms a session when its
"Submission id" (the SESSION_ID), "Participant id" and study are the stored ones, its "Status" is
APPROVED or AWAITING REVIEW and its "Completion code", when given, is the study's. The
participant's pending labels in the study then count (within the study's labels per item; beyond
it they are kept as surplus). RETURNED, TIMED-OUT or REJECTED sessions stay pending.

Columns are found by name in any order; other columns are ignored. A malformed file is refused
with its row and column named, and nothing is written; the exit code is then 2.`,
    )
    .action(async (file: string, opts: { study: string; prolificStudy?: string; dryRun?: boolean }) => {
      const studyId = parseIntOption("study", opts.study, 1);
      const text = readTextFile(file);
      const guard = guardUserErrors(ProlificImportError, ServiceError);
      const db = await openDatabase();
      const summary = await guard.async(() =>
        importProlificExport(db, studyId, {
          text,
          fileName: file,
          dryRun: opts.dryRun,
          prolificStudy: opts.prolificStudy,
        }),
      );
      // A bulk import: hand back the write-ahead log's space (best effort).
      if (!opts.dryRun) checkpointWal(db);
      console.log(describeProlificImport(summary));
    });
}

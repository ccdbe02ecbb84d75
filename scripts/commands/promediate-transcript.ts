/** `socrates promediate transcript <folder> --case <case>`: a ProMediate conversation log as a run. */
import type { Command } from "commander";
import { BundleImportError } from "../../app/server/bundle-store.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import {
  importTranscript,
  TranscriptImportError,
  type TranscriptImportSummary,
} from "../../app/server/promediate/import-transcript.server.ts";
import { UserError } from "../cli-kit.ts";

interface TranscriptOptions {
  case: string;
  mediatorName: string;
  mediatorBackbone?: string;
  dryRun?: boolean;
}

function explain(err: unknown): never {
  const lines =
    err instanceof TranscriptImportError
      ? err.problems.map((p) => `  ${[p.file, p.where, p.message].filter(Boolean).join(": ")}`)
      : err instanceof BundleImportError
        ? err.problems.map((p) => `  ${p.file}: ${p.path}: ${p.message}`)
        : null;
  if (!lines) throw err;
  const shown = lines.slice(0, 50).concat(lines.length > 50 ? [`  … and ${lines.length - 50} more`] : []);
  throw new UserError(
    `transcript refused, nothing was written (${lines.length} problem${lines.length === 1 ? "" : "s"}):\n${shown.join("\n")}`,
  );
}

function describe(summary: TranscriptImportSummary): string {
  const { inserted, unchanged, dryRun } = summary.imported;
  const stored = inserted.runs + inserted.evaluations;
  const verb = dryRun ? "would import" : "imported";
  const what =
    stored > 0
      ? `${verb} run ${summary.runId}${inserted.evaluations > 0 ? ` and evaluation ${summary.evaluationId}` : ""}`
      : `run ${summary.runId}${unchanged.evaluations > 0 ? " and its evaluation" : ""} already stored and unchanged`;
  const shape = `${summary.turns} turns, ${summary.mediatorTurns} by the mediator, free turn order`;
  const evaluation = summary.evaluationId ? "" : " (no attitudes.json/agreement_scores.json: no per-turn evaluation)";
  return [...summary.warnings.map((w) => `warning: ${w}`), `${what} (${shape})${evaluation}`].join("\n");
}

export function addTranscriptCommand(group: Command): void {
  group
    .command("transcript")
    .description(
      "import a ProMediate conversation folder (conversation.txt [+ attitudes.json, agreement_scores.json]) as a run",
    )
    .argument("<folder>", "the folder ProMediate wrote the conversation to")
    .requiredOption(
      "--case <case>",
      "the case: its name (williams, hmo, …) or its case .json (then its config order is read too)",
    )
    .option("--mediator-name <name>", "the mediator's name in the log", "Mediator")
    .option("--mediator-backbone <name>", "the mediator backbone to record (default: from the folder's path)")
    .option("--dry-run", "check everything and report what would be imported, writing nothing")
    .action(async (folder: string, opts: TranscriptOptions) => {
      let summary: TranscriptImportSummary;
      try {
        summary = await importTranscript(await openDatabase(), folder, {
          caseArg: opts.case,
          mediatorName: opts.mediatorName,
          mediatorBackbone: opts.mediatorBackbone,
          dryRun: opts.dryRun,
        });
      } catch (err) {
        explain(err);
      }
      console.log(describe(summary));
    });
}

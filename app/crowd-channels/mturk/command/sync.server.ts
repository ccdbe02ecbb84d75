/**
 * `socrates mturk sync`: pull a study's assignments from the MTurk API, store what is missing, approve or reject
 * submitted work.
 */
import type { Command } from "commander";
import { openDatabase } from "../../../server/db.server.ts";
import { mturkClient } from "../client.server.ts";
import { syncStudy, type SyncSummary } from "../sync.server.ts";
import { parseIntOption } from "../../../../scripts/cli-kit.ts";
import { explainMturkErrors, type MturkCommandDeps } from "./publish.server.ts";

export interface SyncOptionValues {
  study: string;
  production?: boolean;
  dryRun?: boolean;
}

export function describeSync(summary: SyncSummary): string[] {
  const s = summary;
  const lines = [
    `${s.environment.toUpperCase()}${s.dryRun ? " (dry run: nothing stored, approved or rejected)" : ""}: study ${s.studyId}`,
  ];
  if (s.hits === 0) {
    lines.push(
      `no ${s.environment} HITs are stored for this study; publish them first with \`socrates mturk publish\``,
    );
    return lines;
  }
  lines.push(
    `HITs: ${s.hits}; assignments on MTurk: ${s.assignmentsSeen}; ${s.dryRun ? "would import" : "imported"} ${s.imported}; ` +
      `${s.dryRun ? "would confirm" : "confirmed"} ${s.confirmed} pending; statuses updated ${s.statusesUpdated}`,
  );
  if (s.surplus)
    lines.push(
      `surplus: ${s.surplus} label(s) beyond the item's labels per item (k), stored but left out of the statistics`,
    );
  for (const p of s.problems)
    lines.push(
      `  not taken in: assignment ${p.assignmentId} (HIT ${p.hitId}, item ${p.itemId}, worker ${p.workerId ?? "?"}): ${p.message}`,
    );
  const approve = s.decisions.filter((d) => d.decision === "approve").length;
  const reject = s.decisions.length - approve;
  lines.push(
    s.dryRun
      ? `would approve ${approve} and reject ${reject} submitted assignment(s)`
      : `approved ${s.approved}, rejected ${s.rejected}${s.failed ? `, ${s.failed} refused by MTurk` : ""}`,
  );
  for (const d of s.decisions.filter((x) => x.decision === "reject" || x.error)) {
    const what = d.error ? `MTurk refused to ${d.decision}: ${d.error}` : `reject: ${d.reason}`;
    lines.push(`  assignment ${d.externalId} (worker ${d.workerId}, item ${d.itemId ?? "?"}): ${what}`);
  }
  return lines;
}

/** The action of `mturk sync`, exported so tests run it in-process with a mocked client. */
export async function syncAction(opts: SyncOptionValues, deps: MturkCommandDeps = {}): Promise<SyncSummary> {
  const print = deps.print ?? ((line: string) => console.log(line));
  return explainMturkErrors(async () => {
    const studyId = parseIntOption("study", opts.study, 1);
    const production = opts.production === true;
    const db = await (deps.openDb ?? (() => openDatabase()))();
    const client = (deps.makeClient ?? mturkClient)({ production });
    const summary = await syncStudy(db, client, { studyId, production, dryRun: opts.dryRun === true });
    for (const line of describeSync(summary)) print(line);
    return summary;
  });
}

export function registerMturkSync(mturk: Command): void {
  mturk
    .command("sync")
    .description(
      "pull the assignments of a study's published HITs, store answers the app has not seen, and approve or reject submitted work (sandbox unless --production)",
    )
    .requiredOption("--study <id>", "the crowd study whose HITs to sync")
    .option("--production", "sync the HITs published on the real marketplace; without it, the sandbox's")
    .option("--dry-run", "read MTurk and print what would be stored and decided; approve, reject and store nothing")
    .addHelpText(
      "after",
      `
Submitted work is approved, except on a gold item the worker got wrong, or from a worker the
study flags for low gold accuracy: those are rejected, and the worker reads the reason on MTurk.
Assignments the app never received (their answer is in MTurk's Answer XML, field "label") are
imported; an answer that cannot be read or is not a valid label is listed, not stored.
Answers the task page stored are pending (left out of every statistic) until sync sees their
assignment on MTurk for the same worker and HIT; then they count, up to the study's labels per
item (k); beyond k a label is stored as surplus. An assignment MTurk lists for another worker or
HIT than the page stored stays pending and is listed.
Credentials come from the usual AWS places (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY,
AWS_PROFILE, ~/.aws/credentials); the endpoint is fixed by the command.

Example:
  npx socrates mturk sync --study 2 --dry-run
  npx socrates mturk sync --study 2`,
    )
    .action(async (opts: SyncOptionValues) => {
      await syncAction(opts);
    });
}

/**
 * `socrates mturk publish`: create the qualification type, HIT type and HITs of a crowd study through the MTurk API.
 */
import type { MTurkClient } from "@aws-sdk/client-mturk";
import type { Command } from "commander";
import { ServiceError } from "../../../server/http/errors.server.ts";
import { openDatabase, type Db } from "../../../server/db.server.ts";
import { isMissingCredentials, MISSING_CREDENTIALS_HELP, MturkEndpointError, mturkClient } from "../client.server.ts";
import { publishStudy, PublishInterruptedError, type PublishSummary } from "../publish.server.ts";
import { TemplateError } from "../../../server/templates.server.ts";
import { parseIntOption, UserError } from "../../../../scripts/cli-kit.ts";
import { addHitOptions, hitOverrides, type HitOptionValues } from "./hit-options.server.ts";

/** What the mturk API commands use from the outside world; tests pass their own. */
export interface MturkCommandDeps {
  openDb?: () => Db | Promise<Db>;
  /** Builds the API client; the default is mturkClient (sandbox unless production). */
  makeClient?: (options: { production: boolean }) => MTurkClient;
  print?: (line: string) => void;
}

/**
 * Runs an API command, turning what the user can fix into a UserError (exit 2): bad options,
 * unknown or closed studies, a broken qualification test file, missing AWS credentials, a
 * client that points at the wrong endpoint, and MTurk's refusals (funds, limits, parameters).
 */
export async function explainMturkErrors<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ServiceError) {
      const details = err.problems.map((p) => `\n  ${p.path}: ${p.message}`).join("");
      throw new UserError(`${err.message}${details}`);
    }
    if (err instanceof TemplateError || err instanceof MturkEndpointError) throw new UserError(err.message);
    if (isMissingCredentials(err)) throw new UserError(MISSING_CREDENTIALS_HELP);
    // A publish stopped part-way keeps what it created; the message says how to go on.
    if (err instanceof PublishInterruptedError) throw new UserError(err.message);
    // MTurk's own refusals (insufficient funds, bad parameters) arrive as service exceptions.
    if (err instanceof Error && "$metadata" in err)
      throw new UserError(`MTurk refused the request (${err.name}): ${err.message}`);
    throw err;
  }
}

export interface PublishOptionValues extends HitOptionValues {
  study: string;
  baseUrl: string;
  production?: boolean;
  dryRun?: boolean;
  frameHeight?: string;
}

const usd = (n: number) => `$${n.toFixed(2)}`;

export function describePublish(summary: PublishSummary): string[] {
  const s = summary;
  const env = s.environment.toUpperCase();
  const lines = [
    `${env}${s.dryRun ? " (dry run: nothing sent to MTurk, nothing stored)" : ""}: study ${s.studyId} "${s.studyName}"`,
    `items: ${s.itemsTotal} in the study, ${s.itemsNeedingLabels} still need labels, ${s.itemsAlreadyPublished} of those already have a ${s.environment} HIT`,
  ];
  if (s.hits.length === 0 && s.itemsNeedingLabels === s.itemsAlreadyPublished) {
    lines.push(
      s.itemsNeedingLabels === 0
        ? "nothing to publish: every item has its labels"
        : "nothing to publish: every item that needs labels already has a HIT (run `socrates mturk sync`)",
    );
    return lines;
  }
  const qualification = s.qualificationTypeId ?? "(created on publish)";
  lines.push(
    `qualification type: ${qualification} [${s.qualificationTypeSource}] for test ${s.qualificationTestKey}, score >= ${s.settings.minQualificationScore}`,
  );
  lines.push(
    `worker filters: approval rate >= ${s.settings.minPercentApproved}%, approved HITs >= ${s.settings.minApprovedHits}, locale ${s.settings.locale}`,
  );
  if (s.hitTypeId) lines.push(`HIT type: ${s.hitTypeId}`);
  const recovered = s.hits.filter((h) => h.recovered).length;
  const verb = s.dryRun ? "HITs to create" : "HITs created";
  lines.push(
    `${verb}: ${s.hits.length}${recovered ? ` (${recovered} found on MTurk from an interrupted publish)` : ""}, ${s.settings.assignmentsPerHit} assignments each at ${usd(s.settings.rewardUsd)}`,
  );
  for (const hit of s.hits.slice(0, 5))
    lines.push(`  item ${hit.itemId}: ${hit.hitId ? `HIT ${hit.hitId} ` : ""}${hit.url}`);
  if (s.hits.length > 5) lines.push(`  … and ${s.hits.length - 5} more`);
  const e = s.estimate;
  lines.push(
    `estimated cost: ${usd(e.rewardsTotalUsd)} rewards + ${usd(e.feesTotalUsd)} MTurk fees = ${usd(e.totalUsd)} for ${e.assignments} assignments`,
    `hourly wage: ${usd(e.hourlyWageUsd)}/h at ${Math.round(e.secondsPerAssignment)} s per assignment (${e.secondsSource})`,
  );
  if (s.fairPayWarning) lines.push(`WARNING: ${s.fairPayWarning} (published because of --force)`);
  lines.push(s.previewUrl ? `preview the HIT group: ${s.previewUrl}` : `HITs will be listed on ${s.workerSite}`);
  return lines;
}

/** The action of `mturk publish`, exported so tests run it in-process with a mocked client. */
export async function publishAction(opts: PublishOptionValues, deps: MturkCommandDeps = {}): Promise<PublishSummary> {
  const print = deps.print ?? ((line: string) => console.log(line));
  return explainMturkErrors(async () => {
    const studyId = parseIntOption("study", opts.study, 1);
    const frameHeight =
      opts.frameHeight === undefined ? undefined : parseIntOption("frame-height", opts.frameHeight, 0, 10_000);
    const overrides = hitOverrides(opts);
    const production = opts.production === true;
    const db = await (deps.openDb ?? (() => openDatabase()))();
    const client = opts.dryRun ? null : (deps.makeClient ?? mturkClient)({ production });
    try {
      const summary = await publishStudy(db, client, {
        studyId,
        baseUrl: opts.baseUrl,
        production,
        overrides,
        force: opts.force === true,
        frameHeight,
        dryRun: opts.dryRun === true,
      });
      for (const line of describePublish(summary)) print(line);
      return summary;
    } catch (err) {
      if (err instanceof PublishInterruptedError) for (const line of describePublish(err.summary)) print(line);
      throw err;
    }
  });
}

export function registerMturkPublish(mturk: Command): void {
  const command = mturk
    .command("publish")
    .description(
      "create the qualification type, HIT type and one ExternalQuestion HIT per item still needing labels, through the MTurk API (sandbox unless --production)",
    )
    .requiredOption("--study <id>", "the crowd study to publish")
    .requiredOption(
      "--base-url <url>",
      "https address the app is served at; each HIT frames <url>/mturk/task?study=…&item=…",
    )
    .option("--production", "publish on the real marketplace (paid); without it everything goes to the sandbox")
    .option("--dry-run", "print what would be created and what it costs; call nothing, store nothing")
    .option("--frame-height <px>", "height of the frame MTurk shows the task in (0 = the whole window)", "0");
  addHitOptions(command)
    .addHelpText(
      "after",
      `
Credentials come from the usual AWS places: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY,
AWS_PROFILE, or ~/.aws/credentials. The endpoint is fixed by the command (the sandbox,
https://mturk-requester-sandbox.us-east-1.amazonaws.com, unless --production);
AWS_ENDPOINT_URL* variables are ignored.

Each HIT is stored as soon as MTurk creates it, and items that already have a HIT in the
environment are skipped, so running publish again after an interruption only adds what is
missing. The reading test (QUALIFICATION_TEST_FILE, else the demo test) becomes a qualification
type once per environment and test version, then is reused.

Example:
  npx socrates mturk publish --study 2 --base-url https://studio.example.org --dry-run
  npx socrates mturk publish --study 2 --base-url https://studio.example.org --reward 0.60`,
    )
    .action(async (opts: PublishOptionValues) => {
      await publishAction(opts);
    });
}

/** `socrates curate`: searcher → scenario writer → rejection by unmediated replays, per domain, resumable. */
import type { Command } from "commander";
import { DOMAINS, type Domain } from "../../app/domain/bundle.ts";
import { progressLine } from "../../app/domain/curation/progress.ts";
import { describeDomainSummary } from "../../app/domain/curation/summary.ts";
import {
  curate,
  planCuration,
  type CurateEvent,
  type CurateResult,
  type DomainPlan,
} from "../../app/server/curation/curate.server.ts";
import { parseCurationConfig, type CurationConfig } from "../../app/server/curation/curation-config.server.ts";
import { openDatabase, type Db } from "../../app/server/db.server.ts";
import { createLlm, type LlmCallEvent } from "../../app/server/llm/client.server.ts";
import {
  LlmConfigError,
  loadLlmConfig,
  resolveConfigPath,
  roleConfig,
  type LlmConfig,
} from "../../app/server/llm/config.server.ts";
import { candidatesOfDomain } from "../../app/server/models/curation-candidate.server.ts";
import { guardUserErrors, interruptible, parseIntOption, UserError } from "../cli-kit.ts";
import { commandLine } from "../command-line.ts";

interface CurateOptions {
  domains?: string;
  perDomain?: string;
  replays?: string;
  source?: string[];
  maxCost?: string;
  config?: string;
  dryRun?: boolean;
}

const asUserError = guardUserErrors(LlmConfigError);

export function parseDomains(raw: string): Domain[] {
  if (raw === "all") return [...DOMAINS];
  const names = raw
    .split(",")
    .map((d) => d.trim())
    .filter(Boolean);
  const unknown = names.filter((d) => !(DOMAINS as readonly string[]).includes(d));
  if (unknown.length > 0 || names.length === 0)
    throw new UserError(
      `--domains: unknown domain ${unknown.join(", ") || "(none)"}; use "all" or a comma-separated list of ${DOMAINS.join(", ")}`,
    );
  return [...new Set(names)] as Domain[];
}

/** The file's curation section, with `--source files DIR` or `--source web` applied. */
function curationConfig(config: LlmConfig, source: string[] | undefined): CurationConfig {
  const section = (config.curation ?? {}) as Record<string, unknown>;
  if (source === undefined) return asUserError(() => parseCurationConfig(config.curation, config.source));
  const [kind, dir, ...rest] = source;
  if (kind === "files" && dir && rest.length === 0)
    return asUserError(() => parseCurationConfig({ ...section, source: { kind: "files", dir } }, config.source));
  if (kind === "web" && dir === undefined) {
    const parsed = asUserError(() => parseCurationConfig(config.curation, config.source));
    if (parsed.source.kind === "files")
      throw new UserError(
        `--source web: ${config.source} configures curation.source as a folder of files; configure web-research or search-tools there`,
      );
    return parsed;
  }
  throw new UserError('--source takes "web" or "files DIR"');
}

function parseCost(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new UserError(`--max-cost: expected an amount in USD above 0, got "${raw}"`);
  return value;
}

function describeEvent(e: CurateEvent): string | null {
  switch (e.type) {
    case "seed":
      return `${e.domain}: seed "${e.title}"${e.resumed ? " (found earlier, not yet written)" : ""}`;
    case "candidate":
      return `${e.domain}: candidate for seed ${e.candidate.seedId}: ${e.candidate.status}${e.candidate.reason ? ` (${e.candidate.rejection}: ${e.candidate.reason})` : ""}`;
    case "exhausted":
      return `${e.domain}: ${e.reason}`;
    case "failed":
      return `${e.domain}: seed ${e.seedId} failed, left for a later run: ${e.reason}`;
    case "refused":
      return `${e.domain}: refused ${e.refusal.url}${e.refusal.redirectedTo ? ` (redirected to ${e.refusal.redirectedTo})` : ""}: ${e.refusal.reason}; not fetched, not shown to the searcher`;
    default:
      return null;
  }
}

interface Tally {
  made: number;
  cached: number;
  failed: number;
  costUsd: number;
}

/** Counts one call; new calls' cost against the cap, which stops the curation cleanly once reached. */
function countCall(tally: Tally, e: LlmCallEvent, maxCost: number | null, controller: AbortController): void {
  if (e.cached) tally.cached += 1;
  else if (e.ok) tally.made += 1;
  else tally.failed += 1;
  tally.costUsd += e.cached ? 0 : e.usage.costUsd;
  if (maxCost !== null && tally.costUsd >= maxCost) controller.abort();
}

/** Prints each seed and candidate, and after each the domain's progress line with cost and ETA. */
function progressReporter(
  db: Db,
  plan: DomainPlan[],
  perDomain: number,
  maxCost: number | null,
  tally: Tally,
): (e: CurateEvent) => Promise<void> {
  const started = Date.now();
  const wanted = plan.reduce((n, p) => n + p.needed, 0);
  let acceptedThisRun = 0;
  return async (e) => {
    const line = describeEvent(e);
    if (line) process.stderr.write(`curate ${line}\n`);
    if (e.type === "candidate" && e.candidate.status === "accepted") acceptedThisRun += 1;
    if (e.type !== "domain" && e.type !== "candidate") return;
    const progress = {
      domain: e.domain,
      accepted: e.accepted,
      perDomain,
      candidates: (await candidatesOfDomain(db, e.domain)).length,
      costUsd: tally.costUsd,
      maxCostUsd: maxCost,
      elapsedMs: Date.now() - started,
      acceptedThisRun,
      remaining: wanted - acceptedThisRun,
    };
    process.stderr.write(`curate ${progressLine(progress)}\n`);
  };
}

function printSummary(result: CurateResult, tally: Tally): void {
  console.log(
    `LLM calls: ${tally.made} made, ${tally.cached} from cache${tally.failed > 0 ? `, ${tally.failed} failed` : ""}; cost $${tally.costUsd.toFixed(4)}`,
  );
  for (const s of result.summaries) console.log(describeDomainSummary(s));
  const total = (key: "seeds" | "candidates" | "accepted") => result.summaries.reduce((n, s) => n + s[key], 0);
  console.log(`total: seeds found ${total("seeds")}, candidates ${total("candidates")}, accepted ${total("accepted")}`);
  for (const f of result.failed)
    console.log(`failed (${f.domain}${f.seedId ? `, seed ${f.seedId}` : ""}): ${f.reason}`);
}

export function registerCurateCommands(program: Command): void {
  program
    .command("curate")
    .description(
      "curate scenarios from real disputes: find a seed, recast it, keep it only if no unmediated replay resolves; resumable",
    )
    .option("--domains <list>", 'domains: "all" or a comma-separated list (default: the configuration\'s, else all)')
    .option("--per-domain <n>", "accepted scenarios wanted per domain (default: the configuration's, else 5)")
    .option("--replays <n>", "unmediated replays per candidate (default: the configuration's, else 3)")
    .option(
      "--source <source...>",
      'where seeds come from: "web" (the configured web-research or search-tools source) or "files DIR"',
    )
    .option("--max-cost <usd>", "stop cleanly once new calls have cost this much (cached calls cost nothing)")
    .option("--config <path>", "LLM configuration (default: SOCRATES_CONFIG or ./socrates.config.json)")
    .option("--dry-run", "print what each domain still needs; call nothing")
    .action(async (opts: CurateOptions, command: Command) => {
      const config = asUserError(() => loadLlmConfig(resolveConfigPath(opts.config)));
      const curation = curationConfig(config, opts.source);
      const domains = opts.domains ? parseDomains(opts.domains) : curation.domains;
      const perDomain = opts.perDomain ? parseIntOption("per-domain", opts.perDomain, 1, 10_000) : curation.perDomain;
      const replays = opts.replays ? parseIntOption("replays", opts.replays, 1, 20) : curation.replays;
      const maxCost = parseCost(opts.maxCost);
      const roles =
        curation.source.kind === "files" ? (["writer", "party"] as const) : (["searcher", "writer", "party"] as const);
      for (const role of roles) asUserError(() => roleConfig(config, role));
      const db = await openDatabase();

      if (opts.dryRun) {
        for (const p of await planCuration(db, domains, perDomain)) {
          console.log(
            `${p.domain}: ${p.accepted}/${perDomain} accepted, ${p.needed} still wanted${p.pendingSeeds > 0 ? `, ${p.pendingSeeds} seeds found earlier and not yet written` : ""}`,
          );
        }
        console.log(
          `each candidate: 2 writer calls (+1 per repair), then up to ${replays} unmediated replays; seeds from ${curation.source.kind}; nothing was called`,
        );
        return;
      }

      const { controller, release } = interruptible();
      const tally = { made: 0, cached: 0, failed: 0, costUsd: 0 };
      const llm = asUserError(() => createLlm({ db, config, onCall: (e) => countCall(tally, e, maxCost, controller) }));
      const report = progressReporter(db, await planCuration(db, domains, perDomain), perDomain, maxCost, tally);
      try {
        const result = await curate({
          db,
          llm,
          config: curation,
          domains,
          perDomain,
          replays,
          signal: controller.signal,
          onEvent: report,
        });
        const capped = maxCost !== null && tally.costUsd >= maxCost;
        // The cap counts one command's new calls, so the same command, cap included, goes on from here.
        const why = capped
          ? `stopped at the cost cap ($${tally.costUsd.toFixed(4)} of $${maxCost!.toFixed(2)}); the cap counts this command's new calls only`
          : "interrupted";
        if (result.stopped) console.log(`${why}; resume with: ${commandLine(command)}`);
        printSummary(result, tally);
        if (result.failed.length > 0) console.log(`run again to retry the failed seeds: ${commandLine(command)}`);
        if (result.failed.length > 0 || (result.stopped && !capped)) process.exitCode = 1;
      } finally {
        release();
      }
    });
}

/**
 * The searcher: finds ONE new seed for a domain from the configured source, stores it with its
 * provenance and returns it. The same dispute is never stored twice (dedupeKeyOf): when the
 * source returns one already stored, it is asked again with that dispute excluded, a few times.
 *
 * Deterministic for (domain, attempt): the prompt is a function of them and the exclusions, so a
 * rerun gets the same replies from the LLM cache; and a seed already stored for (domain, attempt)
 * is returned as is, without a call, so a resumed curation picks up the seed it had.
 */
import type { Domain } from "../../domain/bundle.ts";
import { disputeLabel } from "../../domain/curation/search-prompt.ts";
import { dedupeKeyOf } from "../../domain/curation/seed.ts";
import type { Llm } from "../../domain/llm/types.ts";
import type { Db } from "../db.server.ts";
import type { Env } from "../llm/config.server.ts";
import {
  insertSeed,
  seedOfAttempt,
  seedOfFile,
  type RefusedFetch,
  type SeedProvenance,
  type StoredSeed,
} from "../models/seed.server.ts";
import type { HostLookup } from "../net/outbound.server.ts";
import type { CurationConfig } from "./curation-config.server.ts";
import { readSeedFiles, reportOfFile } from "./search/files-source.server.ts";
import { askWebResearch, askWithTools, type AskRequest, type Found } from "./search/web-sources.server.ts";

export type { StoredSeed } from "../models/seed.server.ts";
export type { CurationConfig } from "./curation-config.server.ts";

export interface SearcherContext {
  db: Db;
  llm: Llm;
  config: CurationConfig;
  /** The resolver the outbound policy checks (tests map their own names); the system's by default. */
  lookup?: HostLookup;
  /** Told of each result or page the outbound policy refused, as it happens. */
  onRefusal?: (domain: Domain, refusal: RefusedFetch) => void;
  /** Where search backend keys are read (process.env by default). */
  env?: Env;
}

export interface FindSeedOptions {
  /** Disputes not to return: titles (as "title (A vs B)" or plain) or dedupe keys. */
  exclude?: string[];
  /** Which search this is for the domain (0, 1, 2, …); the same attempt finds the same seed. */
  attempt: number;
}

/** The source could not produce a usable report (the LLM's reply failed after its repair, a backend error). */
export class SeedSearchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SeedSearchError";
  }
}

/** One new, stored, de-duplicated seed for the domain, or null when the source is exhausted. */
export async function findSeed(
  ctx: SearcherContext,
  domain: Domain,
  options: FindSeedOptions,
): Promise<StoredSeed | null> {
  const earlier = await seedOfAttempt(ctx.db, domain, options.attempt);
  if (earlier) return publicSeed(earlier);
  return ctx.config.source.kind === "files"
    ? findFileSeed(ctx, ctx.config.source.dir, domain, options)
    : searchWeb(ctx, domain, options);
}

function publicSeed(seed: StoredSeed): StoredSeed {
  const { id, domain, title, report, sources, sourceKind } = seed;
  return { id, domain, title, report, sources, sourceKind };
}

/** Asks the configured web source once: a report, or null when it found nothing new; a failure is a SeedSearchError. */
async function askWeb(ctx: SearcherContext, request: AskRequest): Promise<Extract<Found, { ok: true }> | null> {
  const source = ctx.config.source;
  const onRefusal = ctx.onRefusal && ((refusal: RefusedFetch) => ctx.onRefusal!(request.domain, refusal));
  const ask = { llm: ctx.llm, lookup: ctx.lookup, onRefusal, env: ctx.env, configFile: ctx.config.configFile };
  const where = `searcher (${request.domain}, attempt ${request.attempt})`;
  let found: Found;
  try {
    if (source.kind === "search-tools") found = await askWithTools(ask, source, request);
    else if (source.kind === "web-research") found = await askWebResearch(ask, source, request);
    else throw new Error(`the ${source.kind} source is not a web source`);
  } catch (err) {
    throw new SeedSearchError(`${where}: ${(err as Error).message}`);
  }
  if (found.ok === false) throw new SeedSearchError(`${where}: ${found.error}`);
  return found.ok === "exhausted" ? null : found;
}

/** Asks the web source, then again with each duplicate excluded, up to `maxDuplicateRetries` times. */
async function searchWeb(ctx: SearcherContext, domain: Domain, options: FindSeedOptions): Promise<StoredSeed | null> {
  const excluded = [...(options.exclude ?? [])];
  for (let retry = 0; retry <= ctx.config.maxDuplicateRetries; retry++) {
    const found = await askWeb(ctx, { domain, attempt: options.attempt, excluded });
    if (found === null) return null;
    if (!excludedBy(found.report, options.exclude)) {
      const provenance: SeedProvenance = { ...found.provenance, attempt: options.attempt, retry };
      const outcome = await insertSeed(ctx.db, {
        domain,
        report: found.report,
        sourceKind: ctx.config.source.kind,
        provenance,
      });
      if ("stored" in outcome) return publicSeed(outcome.stored);
    }
    excluded.push(disputeLabel(found.report));
  }
  return null;
}

/** The caller excluded this dispute (by label, title or dedupe key). */
function excludedBy(report: { title: string; parties: { name: string }[] }, exclude: readonly string[] = []): boolean {
  const names = new Set([disputeLabel(report), report.title, dedupeKeyOf(report)]);
  return exclude.some((e) => names.has(e));
}

/** The first file for the domain not yet stored (nor a duplicate of a stored dispute, nor excluded). */
async function findFileSeed(
  ctx: SearcherContext,
  dir: string,
  domain: Domain,
  options: FindSeedOptions,
): Promise<StoredSeed | null> {
  for (const entry of readSeedFiles(dir)) {
    if (entry.parsed.domain !== domain || (await seedOfFile(ctx.db, entry.path))) continue;
    const { report, model } = await reportOfFile(ctx.llm, entry, domain);
    if (excludedBy(report, options.exclude)) continue;
    const provenance: SeedProvenance = { attempt: options.attempt, file: entry.path, ...(model ? { model } : {}) };
    const outcome = await insertSeed(ctx.db, { domain, report, sourceKind: "files", provenance });
    if ("stored" in outcome) return publicSeed(outcome.stored);
  }
  return null;
}

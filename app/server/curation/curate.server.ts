/**
 * `socrates curate`: grow a pool of hard scenarios per domain. For each domain, until its quota
 * of accepted scenarios is met: take a seed (one found earlier whose candidate was never written,
 * else a fresh one from the searcher), write and replay it (curate-seed.server.ts), and go back
 * to the searcher after every rejection.
 *
 * Resuming: everything is keyed by what is stored. A seed with a candidate is never recast; the
 * searcher's attempt number is the domain's seed count, and its exclusion list the domain's seed
 * titles, so a restarted curation sends the same requests as the interrupted one and the LLM
 * cache answers them without a new call.
 */
import type { Domain } from "../../domain/bundle.ts";
import { summariseDomain, type DomainSummary } from "../../domain/curation/summary.ts";
import type { Llm } from "../../domain/llm/types.ts";
import type { Db } from "../db.server.ts";
import {
  candidateForSeed,
  candidatesOfDomain,
  seedsWithoutCandidate,
  type CandidateRow,
} from "../models/curation-candidate.server.ts";
import { getSeed, seedsOfDomain, type RefusedFetch } from "../models/seed.server.ts";
import type { HostLookup } from "../net/outbound.server.ts";
import type { CurationConfig } from "./curation-config.server.ts";
import { curateSeed } from "./curate-seed.server.ts";
import { findSeed } from "./searcher.server.ts";
import type { WriterSeed } from "./writer.server.ts";

export interface CurateOptions {
  db: Db;
  llm: Llm;
  config: CurationConfig;
  domains: Domain[];
  perDomain: number;
  replays: number;
  /** The resolver the outbound policy checks; the system's by default (tests map their own names). */
  lookup?: HostLookup;
  /** Stops the curation between steps; calls in flight are abandoned and nothing half done is stored. */
  signal?: AbortSignal;
  /** Awaited before the curation goes on (a progress line may read the database), except for "refused" events. */
  onEvent?: (event: CurateEvent) => void | Promise<void>;
}

export type CurateEvent =
  | { type: "domain"; domain: Domain; accepted: number; perDomain: number }
  | { type: "seed"; domain: Domain; seedId: string; title: string; resumed: boolean }
  | { type: "candidate"; domain: Domain; candidate: CandidateRow; accepted: number; perDomain: number }
  | { type: "exhausted"; domain: Domain; reason: string }
  | { type: "failed"; domain: Domain; seedId: string; reason: string }
  /** The outbound policy refused a search result or page (docs/security.md). */
  | { type: "refused"; domain: Domain; refusal: RefusedFetch };

export interface CurateResult {
  /** Why the curation stopped early, if it did. */
  stopped: "interrupted" | null;
  failed: { domain: Domain; seedId: string; reason: string }[];
  exhausted: Domain[];
  summaries: DomainSummary[];
}

const acceptedCount = async (db: Db, domain: Domain) =>
  (await candidatesOfDomain(db, domain)).filter((c) => c.status === "accepted").length;

/** The next seed for a domain: an interrupted one first, else the searcher's next (null when it has no more). */
async function nextSeed(
  options: CurateOptions,
  domain: Domain,
): Promise<{ seed: WriterSeed; resumed: boolean } | null> {
  const { db } = options;
  const pending = (await seedsWithoutCandidate(db, domain))[0];
  if (pending) return { seed: (await getSeed(db, pending))!, resumed: true };
  const known = await seedsOfDomain(db, domain);
  // Reported from inside the search, which does not wait: a refusal's report must not need to be awaited.
  const onRefusal = (d: Domain, refusal: RefusedFetch) =>
    void options.onEvent?.({ type: "refused", domain: d, refusal });
  const found = await findSeed(
    { db, llm: options.llm, config: options.config, lookup: options.lookup, onRefusal },
    domain,
    {
      exclude: known.map((s) => s.title),
      attempt: known.length,
    },
  );
  if (!found) return null;
  if (await candidateForSeed(db, found.id))
    throw new Error(`the searcher returned seed "${found.id}", which was already curated`);
  return { seed: found, resumed: false };
}

async function curateDomain(options: CurateOptions, domain: Domain, result: CurateResult): Promise<void> {
  const { db, llm, perDomain, onEvent, signal } = options;
  let accepted = await acceptedCount(db, domain);
  await onEvent?.({ type: "domain", domain, accepted, perDomain });
  while (accepted < perDomain) {
    if (signal?.aborted) return void (result.stopped = "interrupted");
    let next: Awaited<ReturnType<typeof nextSeed>>;
    try {
      next = await nextSeed(options, domain);
    } catch (err) {
      // The source failed after its own retries (a backend down, a reply that would not parse): try later.
      const reason = `no seed: ${(err as Error).message}`;
      result.failed.push({ domain, seedId: "", reason });
      await onEvent?.({ type: "failed", domain, seedId: "", reason });
      return;
    }
    if (!next) {
      result.exhausted.push(domain);
      await onEvent?.({ type: "exhausted", domain, reason: "the seed source has no further disputes for this domain" });
      return;
    }
    await onEvent?.({ type: "seed", domain, seedId: next.seed.id, title: next.seed.title, resumed: next.resumed });
    const outcome = await curateSeed(db, llm, next.seed, options.replays, signal);
    if (outcome.kind === "failed") {
      if (outcome.aborted || signal?.aborted) return void (result.stopped = "interrupted");
      // A call that failed after its retries would fail again at once: leave the seed for a later run.
      result.failed.push({ domain, seedId: next.seed.id, reason: outcome.reason });
      await onEvent?.({ type: "failed", domain, seedId: next.seed.id, reason: outcome.reason });
      return;
    }
    if (outcome.candidate.status === "accepted") accepted += 1;
    await onEvent?.({ type: "candidate", domain, candidate: outcome.candidate, accepted, perDomain });
  }
}

export async function summarise(db: Db, domains: Domain[]): Promise<DomainSummary[]> {
  return await Promise.all(
    domains.map(async (d) => summariseDomain(d, (await seedsOfDomain(db, d)).length, await candidatesOfDomain(db, d))),
  );
}

export async function curate(options: CurateOptions): Promise<CurateResult> {
  const result: CurateResult = { stopped: null, failed: [], exhausted: [], summaries: [] };
  for (const domain of options.domains) {
    await curateDomain(options, domain, result);
    if (result.stopped) break;
  }
  result.summaries = await summarise(options.db, options.domains);
  return result;
}

export interface DomainPlan {
  domain: Domain;
  accepted: number;
  needed: number;
  pendingSeeds: number;
}

/** What a curation would still do (`--dry-run`): reads the database, calls nothing. */
export async function planCuration(db: Db, domains: Domain[], perDomain: number): Promise<DomainPlan[]> {
  return await Promise.all(
    domains.map(async (domain) => {
      const accepted = await acceptedCount(db, domain);
      return {
        domain,
        accepted,
        needed: Math.max(0, perDomain - accepted),
        pendingSeeds: (await seedsWithoutCandidate(db, domain)).length,
      };
    }),
  );
}

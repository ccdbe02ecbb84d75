/**
 * Data access for seeds: the seed reports the searcher found, with their provenance (query,
 * model, backend or file) and a unique de-duplication key, so one dispute is stored once.
 */
import { createHash } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Domain } from "../../domain/bundle.ts";
import { dedupeKeyOf, seedReportSchema, type SeedReport, type SeedSource } from "../../domain/curation/seed.ts";
import type { Db } from "../db.server.ts";
import { jsonFieldText } from "./portable-sql.server.ts";

const { seeds } = schema;

export type SeedSourceKind = "web-research" | "search-tools" | "files";

/** A page or search result the outbound policy refused: never fetched, never shown to the model. */
export interface RefusedFetch {
  url: string;
  /** The hop refused, when a redirect led there. */
  redirectedTo?: string;
  reason: string;
}

/** How a seed was found. `attempt` makes a resumed curation find the same seed again without asking. */
export interface SeedProvenance {
  attempt: number;
  /** Extra requests made because the searcher returned disputes already stored. */
  retry?: number;
  model?: string;
  /** The searches the model ran (search-tools) or the prompt's query (web-research). */
  queries?: string[];
  backend?: string;
  backendUrl?: string;
  /** Pages the model read (search-tools). */
  pages?: string[];
  /** Sources the report cites that no search returned (search-tools): for the researcher to check. */
  unverifiedSources?: string[];
  /** Results and pages the outbound policy refused (search-tools). */
  refused?: RefusedFetch[];
  file?: string;
  [key: string]: unknown;
}

export interface StoredSeed {
  id: string;
  domain: Domain;
  title: string;
  report: SeedReport;
  sources: SeedSource[];
  sourceKind: SeedSourceKind;
}

export interface StoredSeedWithProvenance extends StoredSeed {
  provenance: SeedProvenance;
  dedupeKey: string;
}

type SeedRow = typeof seeds.$inferSelect;

function toStored(row: SeedRow): StoredSeedWithProvenance {
  return {
    id: row.id,
    domain: row.domain as Domain,
    title: row.title,
    report: seedReportSchema.parse(row.report),
    sources: row.sources,
    sourceKind: row.sourceKind as SeedSourceKind,
    provenance: row.provenance as SeedProvenance,
    dedupeKey: row.dedupeKey,
  };
}

/** A seed's id: a function of its dedupe key, so the same dispute gets the same id in every database. */
export function seedIdOf(domain: Domain, dedupeKey: string): string {
  return `seed-${domain}-${createHash("sha256").update(dedupeKey).digest("hex").slice(0, 12)}`;
}

export async function getSeed(db: Db, id: string): Promise<StoredSeedWithProvenance | undefined> {
  const row = (await db.select().from(seeds).where(eq(seeds.id, id)).limit(1))[0];
  return row && toStored(row);
}

export async function seedWithKey(db: Db, dedupeKey: string): Promise<StoredSeedWithProvenance | undefined> {
  const row = (await db.select().from(seeds).where(eq(seeds.dedupeKey, dedupeKey)).limit(1))[0];
  return row && toStored(row);
}

/** The seed an earlier search for (domain, attempt) stored, if any. */
export async function seedOfAttempt(
  db: Db,
  domain: Domain,
  attempt: number,
): Promise<StoredSeedWithProvenance | undefined> {
  const row = (
    await db
      .select()
      .from(seeds)
      .where(and(eq(seeds.domain, domain), sql`${jsonFieldText(db, seeds.provenance, "attempt")} = ${String(attempt)}`))
      .limit(1)
  )[0];
  return row && toStored(row);
}

/** The seed read from a file (the `files` source), if any. */
export async function seedOfFile(db: Db, file: string): Promise<StoredSeedWithProvenance | undefined> {
  const row = (
    await db
      .select()
      .from(seeds)
      .where(sql`${jsonFieldText(db, seeds.provenance, "file")} = ${file}`)
      .limit(1)
  )[0];
  return row && toStored(row);
}

export async function seedsOfDomain(db: Db, domain: Domain): Promise<StoredSeedWithProvenance[]> {
  return (
    await db.select().from(seeds).where(eq(seeds.domain, domain)).orderBy(asc(seeds.createdAt), asc(seeds.id))
  ).map(toStored);
}

export interface NewSeed {
  domain: Domain;
  report: SeedReport;
  sourceKind: SeedSourceKind;
  provenance: SeedProvenance;
}

/**
 * Stores a seed unless its dispute is already stored: then returns `{ duplicateOf }`, the stored
 * seed with the same key (the unique index decides, so two writers cannot both store it).
 */
export async function insertSeed(db: Db, seed: NewSeed): Promise<{ stored: StoredSeed } | { duplicateOf: StoredSeed }> {
  const dedupeKey = dedupeKeyOf(seed.report);
  const id = seedIdOf(seed.domain, dedupeKey);
  const inserted = (
    await db
      .insert(seeds)
      .values({
        id,
        domain: seed.domain,
        title: seed.report.title,
        report: seed.report,
        sources: seed.report.sources,
        sourceKind: seed.sourceKind,
        provenance: seed.provenance,
        dedupeKey,
      })
      .onConflictDoNothing()
      .returning()
  )[0];
  if (inserted) return { stored: toStored(inserted) };
  return { duplicateOf: (await seedWithKey(db, dedupeKey)) ?? (await getSeed(db, id))! };
}

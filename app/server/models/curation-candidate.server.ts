/**
 * Data access for curation candidates: one row per seed the writer recast, accepted (it became a
 * scenario) or rejected with its reason. A seed has at most one candidate, so a resumed
 * curation never recasts a seed twice.
 */
import { and, asc, eq, isNull } from "drizzle-orm";
import { curationCandidates, seeds } from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";
import type { Domain } from "../../domain/bundle.ts";
import { seedReportSchema, type SeedReport } from "../../domain/curation/seed.ts";

export type CandidateRow = typeof curationCandidates.$inferSelect;
export type NewCandidate = Omit<typeof curationCandidates.$inferInsert, "id" | "createdAt">;

export function insertCandidate(db: Db, row: NewCandidate): void {
  db.insert(curationCandidates).values(row).run();
}

export function candidateForSeed(db: Db, seedId: string): CandidateRow | undefined {
  return db.select().from(curationCandidates).where(eq(curationCandidates.seedId, seedId)).get();
}

export function candidatesOfDomain(db: Db, domain: string): CandidateRow[] {
  return db.select().from(curationCandidates).where(eq(curationCandidates.domain, domain)).orderBy(asc(curationCandidates.id)).all();
}

/** Seed ids of a domain that no candidate was written for yet (a curation interrupted after finding them), oldest first. */
export function seedsWithoutCandidate(db: Db, domain: string): string[] {
  return db
    .select({ id: seeds.id })
    .from(seeds)
    .leftJoin(curationCandidates, eq(curationCandidates.seedId, seeds.id))
    .where(and(eq(seeds.domain, domain), isNull(curationCandidates.id)))
    .orderBy(asc(seeds.createdAt), asc(seeds.id))
    .all()
    .map((r) => r.id);
}

/** Every seed of a domain, oldest first (their titles are what the searcher is told to skip). */
export function seedsOfDomain(db: Db, domain: string): { id: string; title: string }[] {
  return db.select({ id: seeds.id, title: seeds.title }).from(seeds).where(eq(seeds.domain, domain)).orderBy(asc(seeds.createdAt), asc(seeds.id)).all();
}

/** A stored seed as the writer reads it (its report checked against the seed contract). */
export function seedForWriter(db: Db, id: string): { id: string; domain: Domain; title: string; report: SeedReport } | undefined {
  const row = db.select().from(seeds).where(eq(seeds.id, id)).get();
  if (!row) return undefined;
  return { id: row.id, domain: row.domain as Domain, title: row.title, report: seedReportSchema.parse(row.report) };
}

/**
 * Data access for curation candidates: one row per seed the writer recast, accepted (it became a
 * scenario) or rejected with its reason. A seed has at most one candidate, so a resumed
 * curation never recasts a seed twice.
 */
import { and, asc, eq, isNull } from "drizzle-orm";
import { curationCandidates, seeds } from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";

export type CandidateRow = typeof curationCandidates.$inferSelect;
export type NewCandidate = Omit<typeof curationCandidates.$inferInsert, "id" | "createdAt">;

export async function insertCandidate(db: Db, row: NewCandidate): Promise<void> {
  await db.insert(curationCandidates).values(row);
}

export async function candidateForSeed(db: Db, seedId: string): Promise<CandidateRow | undefined> {
  return (await db.select().from(curationCandidates).where(eq(curationCandidates.seedId, seedId)).limit(1))[0];
}

/** The accepted candidate that became this scenario (a curated scenario's link to its seed), if any. */
export async function acceptedCandidateOfScenario(db: Db, scenarioId: string): Promise<CandidateRow | undefined> {
  return (
    await db
      .select()
      .from(curationCandidates)
      .where(and(eq(curationCandidates.scenarioId, scenarioId), eq(curationCandidates.status, "accepted")))
      .limit(1)
  )[0];
}

export async function candidatesOfDomain(db: Db, domain: string): Promise<CandidateRow[]> {
  return await db
    .select()
    .from(curationCandidates)
    .where(eq(curationCandidates.domain, domain))
    .orderBy(asc(curationCandidates.id));
}

/**
 * Seed ids of a domain that no candidate was written for yet (a curation interrupted after finding them), oldest first.
 */
export async function seedsWithoutCandidate(db: Db, domain: string): Promise<string[]> {
  return (
    await db
      .select({ id: seeds.id })
      .from(seeds)
      .leftJoin(curationCandidates, eq(curationCandidates.seedId, seeds.id))
      .where(and(eq(seeds.domain, domain), isNull(curationCandidates.id)))
      .orderBy(asc(seeds.createdAt), asc(seeds.id))
  ).map((r) => r.id);
}

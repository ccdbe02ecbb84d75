/**
 * Reads of the curation record (seeds and curation candidates) for the research pages: where a
 * curated scenario came from, and what became of every candidate. Writes belong to the curation
 * pipeline's repositories (seed, curation-candidate).
 */
import { asc, eq } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";

/** The accepted candidate a scenario was curated from, with its seed; undefined for any other scenario. */
export async function curationOfScenario(db: Db, scenarioId: string) {
  return (
    await db
      .select({ candidate: schema.curationCandidates, seed: schema.seeds })
      .from(schema.curationCandidates)
      .innerJoin(schema.seeds, eq(schema.seeds.id, schema.curationCandidates.seedId))
      .where(eq(schema.curationCandidates.scenarioId, scenarioId))
      .limit(1)
  )[0];
}

/** Every candidate's domain, status and rejection, with its seed's title, oldest first. */
export async function candidateOutcomes(db: Db) {
  return await db
    .select({
      domain: schema.curationCandidates.domain,
      status: schema.curationCandidates.status,
      rejection: schema.curationCandidates.rejection,
      reason: schema.curationCandidates.reason,
      seedTitle: schema.seeds.title,
    })
    .from(schema.curationCandidates)
    .innerJoin(schema.seeds, eq(schema.seeds.id, schema.curationCandidates.seedId))
    .orderBy(asc(schema.curationCandidates.domain), asc(schema.curationCandidates.id));
}

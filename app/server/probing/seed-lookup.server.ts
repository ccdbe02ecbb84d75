/** The seed report a scenario was curated from: the seed of the accepted candidate that became it, or null. */
import type { Db } from "../db.server.ts";
import { acceptedCandidateOfScenario } from "../models/curation-candidate.server.ts";
import { getSeed } from "../models/seed.server.ts";
import type { ProbeSeed } from "./writer.server.ts";

export async function seedOfScenario(db: Db, scenarioId: string): Promise<ProbeSeed | null> {
  const candidate = await acceptedCandidateOfScenario(db, scenarioId);
  const seed = candidate ? await getSeed(db, candidate.seedId) : undefined;
  return seed ? { id: seed.id, report: seed.report } : null;
}

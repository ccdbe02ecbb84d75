/** Data access for matched pairs (a mediated run and its unmediated twin). */
import { and, asc, eq, inArray, or, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { MatchedPair } from "../../domain/bundle.ts";
import type { Db } from "../db.server.ts";
import { preparedOnce } from "./prepared.server.ts";

const { matchedPairs } = schema;

export type MatchedPairRow = typeof matchedPairs.$inferSelect;

/** Every matched pair, in id order. */
export async function allMatchedPairs(db: Db): Promise<MatchedPairRow[]> {
  return await db.select().from(matchedPairs).orderBy(asc(matchedPairs.id));
}

/**
 * The pairs a run belongs to (as the mediated or the unmediated run), in id order. A pair's runs
 * are of its condition (the import checks it), so the search starts from the run's condition:
 * unmediated_run_id has no index, and the benchmark asks this once per run.
 */
const pairsOfRun = preparedOnce((db) => {
  const runId = sql.placeholder("runId");
  const conditionOfRun = sql`(select ${schema.runs.conditionId} from ${schema.runs} where ${schema.runs.id} = ${runId})`;
  return db
    .select()
    .from(matchedPairs)
    .where(
      and(
        eq(matchedPairs.conditionId, conditionOfRun),
        or(eq(matchedPairs.mediatedRunId, runId), eq(matchedPairs.unmediatedRunId, runId)),
      ),
    )
    .orderBy(asc(matchedPairs.id))
    .prepare();
});

export async function matchedPairsOfRun(db: Db, runId: string): Promise<MatchedPairRow[]> {
  return await pairsOfRun(db).execute({ runId });
}

/** Which of these pair ids are stored. */
export async function storedMatchedPairIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  return new Set(
    (
      await db
        .select({ id: matchedPairs.id })
        .from(matchedPairs)
        .where(inArray(matchedPairs.id, [...ids]))
    ).map((r) => r.id),
  );
}

// The import asks once per matched pair it brings (matched_pairs_mediated_uq).
const byMediatedRun = preparedOnce((db) =>
  db
    .select({ id: matchedPairs.id })
    .from(matchedPairs)
    .where(eq(matchedPairs.mediatedRunId, sql.placeholder("runId")))
    .prepare(),
);

/** The id of the stored pair whose mediated run this is (one pair per mediated run). */
export async function matchedPairIdOfMediatedRun(db: Db, runId: string): Promise<string | undefined> {
  return (await byMediatedRun(db).execute({ runId }))[0]?.id;
}

/** Inserts a matched pair (call inside the caller's transaction; its runs must be stored). */
export async function insertMatchedPair(db: Db, pair: MatchedPair): Promise<void> {
  const { id, condition_id: conditionId, mediated_run_id: mediatedRunId, unmediated_run_id: unmediatedRunId } = pair;
  await db.insert(matchedPairs).values({ id, conditionId, mediatedRunId, unmediatedRunId });
}

/** Data access for A/B reactiveness pairs. */
import { and, asc, count, eq } from "drizzle-orm";
import type { BackboneCount } from "../../task-types/study-form.ts";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";

const { abPairs, runs } = schema;

export type AbPairRow = typeof abPairs.$inferSelect;

export async function findAbPair(db: Db, pairId: string): Promise<AbPairRow | undefined> {
  return (await db.select().from(abPairs).where(eq(abPairs.id, pairId)).limit(1))[0];
}

/** The stored pair of these two runs (a pair's identity is its runs, whatever its id). */
export async function findAbPairByRuns(db: Db, runAId: string, runBId: string): Promise<AbPairRow | undefined> {
  return (
    await db
      .select()
      .from(abPairs)
      .where(and(eq(abPairs.runAId, runAId), eq(abPairs.runBId, runBId)))
      .orderBy(asc(abPairs.id))
      .limit(1)
  )[0];
}

export async function abPairCount(db: Db): Promise<number> {
  return (await db.select({ n: count() }).from(abPairs).limit(1))[0]?.n ?? 0;
}

/** A pair with the simulator backbone that played it (its runs share one; the import checks that). */
export type AbPairWithBackbone = AbPairRow & { backbone: string };

export async function listAbPairsWithBackbone(db: Db): Promise<AbPairWithBackbone[]> {
  return (
    await db
      .select({ pair: abPairs, backbone: runs.simulatorBackbone })
      .from(abPairs)
      .innerJoin(runs, eq(runs.id, abPairs.runAId))
      .orderBy(asc(abPairs.id))
  ).map((r) => ({ ...r.pair, backbone: r.backbone }));
}

/** How many stored pairs each simulator backbone played, by backbone name. */
export async function abPairCountsByBackbone(db: Db): Promise<BackboneCount[]> {
  return await db
    .select({ backbone: runs.simulatorBackbone, pairs: count() })
    .from(abPairs)
    .innerJoin(runs, eq(runs.id, abPairs.runAId))
    .groupBy(runs.simulatorBackbone)
    .orderBy(asc(runs.simulatorBackbone));
}

/** Data access for A/B reactiveness pairs. */
import { asc, count, eq } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";

const { abPairs } = schema;

export type AbPairRow = typeof abPairs.$inferSelect;

export function findAbPair(db: Db, pairId: string): AbPairRow | undefined {
  return db.select().from(abPairs).where(eq(abPairs.id, pairId)).get();
}

export function listAbPairs(db: Db): AbPairRow[] {
  return db.select().from(abPairs).orderBy(asc(abPairs.id)).all();
}

export function abPairCount(db: Db): number {
  return db.select({ n: count() }).from(abPairs).get()?.n ?? 0;
}

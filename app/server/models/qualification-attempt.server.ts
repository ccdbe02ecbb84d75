/** Data access for crowd workers' qualification-test attempts. */
import { count, eq } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";

const { qualificationAttempts } = schema;

export async function insertQualificationAttempt(
  db: Db,
  attempt: typeof qualificationAttempts.$inferInsert,
): Promise<void> {
  await db.insert(qualificationAttempts).values(attempt);
}

export function countQualificationAttempts(db: Db, annotatorId: number): number {
  return (
    db
      .select({ n: count() })
      .from(qualificationAttempts)
      .where(eq(qualificationAttempts.annotatorId, annotatorId))
      .get()?.n ?? 0
  );
}

/** Attempts made from one network (its keyed hash) on the reading test, in any study, by any worker. */
export function countNetworkAttempts(db: Db, network: string): number {
  return (
    db.select({ n: count() }).from(qualificationAttempts).where(eq(qualificationAttempts.network, network)).get()?.n ??
    0
  );
}

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

export async function countQualificationAttempts(db: Db, annotatorId: number): Promise<number> {
  return (
    (
      await db
        .select({ n: count() })
        .from(qualificationAttempts)
        .where(eq(qualificationAttempts.annotatorId, annotatorId))
        .limit(1)
    )[0]?.n ?? 0
  );
}

/** Attempts made from one network (its keyed hash) on the reading test, in any study, by any worker. */
export async function countNetworkAttempts(db: Db, network: string): Promise<number> {
  return (
    (
      await db
        .select({ n: count() })
        .from(qualificationAttempts)
        .where(eq(qualificationAttempts.network, network))
        .limit(1)
    )[0]?.n ?? 0
  );
}

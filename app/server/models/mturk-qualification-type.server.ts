/** Qualification types created on MTurk, one per environment and test version. Data access only. */
import { and, eq } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";

const { mturkQualificationTypes } = schema;

/** The stored qualification type of this test in this environment, if any. */
export async function storedQualificationType(db: Db, environment: string, testKey: string): Promise<string | null> {
  const row = (
    await db
      .select({ id: mturkQualificationTypes.qualificationTypeId })
      .from(mturkQualificationTypes)
      .where(and(eq(mturkQualificationTypes.environment, environment), eq(mturkQualificationTypes.testKey, testKey)))
      .limit(1)
  )[0];
  return row?.id ?? null;
}

export async function storeQualificationType(
  db: Db,
  values: typeof mturkQualificationTypes.$inferInsert,
): Promise<void> {
  await db.insert(mturkQualificationTypes).values(values).onConflictDoNothing();
}

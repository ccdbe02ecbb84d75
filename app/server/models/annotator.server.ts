/** Data access for annotator accounts (admins, experts, crowd workers). */
import { and, asc, count, eq, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";
import { preparedOnce } from "./prepared.server.ts";

const { annotators } = schema;

export type AnnotatorRow = typeof annotators.$inferSelect;

// Read on every submit and session check: prepared once per connection.
const byId = preparedOnce((db) =>
  db
    .select()
    .from(annotators)
    .where(eq(annotators.id, sql.placeholder("id")))
    .prepare(),
);

export async function findAnnotator(db: Db, annotatorId: number): Promise<AnnotatorRow | undefined> {
  return (await byId(db).execute({ id: annotatorId }))[0];
}

export async function findAnnotatorByUsername(db: Db, username: string): Promise<AnnotatorRow | undefined> {
  return (await db.select().from(annotators).where(eq(annotators.username, username)).limit(1))[0];
}

export async function findCrowdWorker(db: Db, channel: string, externalId: string): Promise<number | undefined> {
  return (
    await db
      .select({ id: annotators.id })
      .from(annotators)
      .where(and(eq(annotators.channel, channel), eq(annotators.externalId, externalId)))
      .limit(1)
  )[0]?.id;
}

export async function insertAnnotator(db: Db, values: typeof annotators.$inferInsert): Promise<number> {
  return (await db.insert(annotators).values(values).returning({ id: annotators.id }))[0].id;
}

/** Inserts unless the username or channel identity exists already; returns the new id or undefined. */
export async function insertAnnotatorIfNew(
  db: Db,
  values: typeof annotators.$inferInsert,
): Promise<number | undefined> {
  return (await db.insert(annotators).values(values).onConflictDoNothing().returning({ id: annotators.id }))[0]?.id;
}

export async function updateAnnotator(
  db: Db,
  annotatorId: number,
  set: Partial<Pick<AnnotatorRow, "passwordHash" | "active" | "qualifiedAt" | "autoAdvance" | "hotkeys">>,
): Promise<void> {
  await db.update(annotators).set(set).where(eq(annotators.id, annotatorId));
}

/** Every account, by role then username, without password hashes. */
export async function listAnnotatorRows(db: Db) {
  return await db
    .select({
      id: annotators.id,
      username: annotators.username,
      displayName: annotators.displayName,
      role: annotators.role,
      channel: annotators.channel,
      active: annotators.active,
      qualifiedAt: annotators.qualifiedAt,
      createdAt: annotators.createdAt,
    })
    .from(annotators)
    .orderBy(asc(annotators.role), asc(annotators.username));
}

/** How many crowd annotators a channel has brought in. */
export async function crowdWorkerCount(db: Db, channel: string): Promise<number> {
  return (await db.select({ n: count() }).from(annotators).where(eq(annotators.channel, channel)).limit(1))[0]?.n ?? 0;
}

/** When the annotator passed the qualification test (null until then). */
export async function qualifiedAt(db: Db, annotatorId: number): Promise<string | null> {
  return (
    (await db.select({ q: annotators.qualifiedAt }).from(annotators).where(eq(annotators.id, annotatorId)).limit(1))[0]
      ?.q ?? null
  );
}

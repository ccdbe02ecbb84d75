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

export function findAnnotatorByUsername(db: Db, username: string): AnnotatorRow | undefined {
  return db.select().from(annotators).where(eq(annotators.username, username)).get();
}

export function findCrowdWorker(db: Db, channel: string, externalId: string): number | undefined {
  return db
    .select({ id: annotators.id })
    .from(annotators)
    .where(and(eq(annotators.channel, channel), eq(annotators.externalId, externalId)))
    .get()?.id;
}

export function insertAnnotator(db: Db, values: typeof annotators.$inferInsert): number {
  return db.insert(annotators).values(values).returning({ id: annotators.id }).get().id;
}

/** Inserts unless the username or channel identity exists already; returns the new id or undefined. */
export function insertAnnotatorIfNew(db: Db, values: typeof annotators.$inferInsert): number | undefined {
  return db.insert(annotators).values(values).onConflictDoNothing().returning({ id: annotators.id }).get()?.id;
}

export function updateAnnotator(
  db: Db,
  annotatorId: number,
  set: Partial<Pick<AnnotatorRow, "passwordHash" | "active" | "qualifiedAt" | "autoAdvance" | "hotkeys">>,
): void {
  db.update(annotators).set(set).where(eq(annotators.id, annotatorId)).run();
}

/** Every account, by role then username, without password hashes. */
export function listAnnotatorRows(db: Db) {
  return db
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
    .orderBy(asc(annotators.role), asc(annotators.username))
    .all();
}

/** How many crowd annotators a channel has brought in. */
export function crowdWorkerCount(db: Db, channel: string): number {
  return db.select({ n: count() }).from(annotators).where(eq(annotators.channel, channel)).get()?.n ?? 0;
}

/** When the annotator passed the qualification test (null until then). */
export function qualifiedAt(db: Db, annotatorId: number): string | null {
  return (
    db.select({ q: annotators.qualifiedAt }).from(annotators).where(eq(annotators.id, annotatorId)).get()?.q ?? null
  );
}

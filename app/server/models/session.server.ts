/** Data access for server-side login sessions (rows keyed by the sha256 of the cookie's random id). */
import { and, eq, gt, lte, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";
import { preparedOnce } from "./prepared.server.ts";
import { changedRows } from "../db.server.ts";

const { annotators, sessions } = schema;

export type SessionRow = typeof sessions.$inferSelect;

export async function insertSession(
  db: Db,
  values: { idHash: string; annotatorId: number; data: Record<string, unknown>; expiresAt: string },
): Promise<void> {
  await db.insert(sessions).values(values);
}

/** The session with this id hash, unless it has expired by `now` (ISO time). */
export async function findLiveSession(db: Db, idHash: string, now: string): Promise<SessionRow | undefined> {
  return (await liveSession(db).execute({ idHash, now }))[0];
}

// Read on every request of a signed-in user: prepared once per connection.
const liveSession = preparedOnce((db) =>
  db
    .select()
    .from(sessions)
    .where(and(eq(sessions.idHash, sql.placeholder("idHash")), gt(sessions.expiresAt, sql.placeholder("now"))))
    .prepare(),
);

/**
 * A live session's data and its annotator's row, in one read: what every signed-in request needs (the session store's
 * read, then the annotator by id, was two).
 */
export async function findLiveSessionAnnotator(
  db: Db,
  idHash: string,
  now: string,
): Promise<{ data: Record<string, unknown>; annotator: typeof annotators.$inferSelect } | undefined> {
  return (await liveSessionAnnotator(db).execute({ idHash, now }))[0];
}

const liveSessionAnnotator = preparedOnce((db) =>
  db
    .select({ data: sessions.data, annotator: annotators })
    .from(sessions)
    .innerJoin(annotators, eq(annotators.id, sessions.annotatorId))
    .where(and(eq(sessions.idHash, sql.placeholder("idHash")), gt(sessions.expiresAt, sql.placeholder("now"))))
    .prepare(),
);

export async function updateSession(
  db: Db,
  idHash: string,
  set: { data: Record<string, unknown>; expiresAt: string },
): Promise<void> {
  await db.update(sessions).set(set).where(eq(sessions.idHash, idHash));
}

export async function deleteSession(db: Db, idHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
}

/** Ends every session of one account (password change, deactivation); returns how many. */
export async function deleteSessionsOf(db: Db, annotatorId: number): Promise<number> {
  return changedRows(await db.delete(sessions).where(eq(sessions.annotatorId, annotatorId)));
}

/** Removes sessions that expired by `now` (ISO time). */
export async function purgeExpiredSessions(db: Db, now: string): Promise<number> {
  return changedRows(await db.delete(sessions).where(lte(sessions.expiresAt, now)));
}

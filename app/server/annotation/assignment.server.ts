/**
 * Task allocation. Each item gets exactly k distinct annotators: an active lease or a submitted
 * assignment takes a slot; an expired lease is released back to the pool. Allocation runs in one
 * IMMEDIATE transaction, so concurrent requests (threads or processes) serialise on SQLite's
 * write lock and can never over-assign. Annotators get items in study order, which keeps a
 * trajectory's snippets in sequence.
 */
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";
import { forbidden, notFound } from "../http/errors.server.ts";
import { parseStudyConfig } from "../../domain/study-config.ts";

export interface Lease {
  assignmentId: number;
  itemId: number;
  leaseExpiresAt: string;
  /** True when this is a lease the annotator already held (a reload or a return). */
  resumed: boolean;
}

const addMinutes = (date: Date, minutes: number) => new Date(date.getTime() + minutes * 60_000).toISOString();

/** Releases the study's expired leases; returns how many went back to the pool. */
export function releaseExpiredLeases(db: Db, studyId: number, now = new Date()): number {
  return db.$client
    .prepare(
      `UPDATE assignments SET status = 'released'
       WHERE status = 'leased' AND lease_expires_at <= ?
         AND study_item_id IN (SELECT id FROM study_items WHERE study_id = ?)`,
    )
    .run(now.toISOString(), studyId).changes;
}

/** The annotator's next task in a study (their current lease if they hold one), or null when none is left for them. */
export function nextTask(db: Db, studyId: number, annotatorId: number, now = new Date()): Lease | null {
  const sqlite = db.$client;
  const allocate = sqlite.transaction((): Lease | null => {
    const study = sqlite.prepare(`SELECT labels_per_item AS k, status, config FROM studies WHERE id = ?`).get(studyId) as
      | { k: number; status: string; config: string }
      | undefined;
    if (!study) throw notFound(`Study ${studyId}`);
    if (study.status !== "open") throw forbidden(`Study ${studyId} is closed`);
    const { leaseMinutes } = parseStudyConfig(JSON.parse(study.config));
    releaseExpiredLeases(db, studyId, now);

    const held = sqlite
      .prepare(
        `SELECT a.id AS assignmentId, a.study_item_id AS itemId, a.lease_expires_at AS leaseExpiresAt
         FROM assignments a JOIN study_items i ON i.id = a.study_item_id
         WHERE i.study_id = ? AND a.annotator_id = ? AND a.status = 'leased'
         ORDER BY i.position LIMIT 1`,
      )
      .get(studyId, annotatorId) as Omit<Lease, "resumed"> | undefined;
    if (held) return { ...held, resumed: true };

    const item = sqlite
      .prepare(
        `SELECT i.id FROM study_items i
         WHERE i.study_id = @studyId
           AND NOT EXISTS (SELECT 1 FROM assignments mine
                           WHERE mine.study_item_id = i.id AND mine.annotator_id = @annotatorId AND mine.status <> 'released')
           AND (SELECT count(*) FROM assignments taken
                WHERE taken.study_item_id = i.id AND taken.status <> 'released') < @k
         ORDER BY i.position LIMIT 1`,
      )
      .get({ studyId, annotatorId, k: study.k }) as { id: number } | undefined;
    if (!item) return null;

    const leasedAt = now.toISOString();
    const leaseExpiresAt = addMinutes(now, leaseMinutes);
    // An annotator who let a lease lapse on this item may take it again: the row is reused.
    const row = sqlite
      .prepare(
        `INSERT INTO assignments (study_item_id, annotator_id, status, leased_at, lease_expires_at)
         VALUES (?, ?, 'leased', ?, ?)
         ON CONFLICT (study_item_id, annotator_id) DO UPDATE SET status = 'leased', leased_at = excluded.leased_at, lease_expires_at = excluded.lease_expires_at
         RETURNING id`,
      )
      .get(item.id, annotatorId, leasedAt, leaseExpiresAt) as { id: number };
    return { assignmentId: row.id, itemId: item.id, leaseExpiresAt, resumed: false };
  });
  return allocate.immediate();
}

/** Whether the annotator holds a lease or could get an item now (read-only: leases nothing). */
export function hasWorkFor(db: Db, studyId: number, annotatorId: number, now = new Date()): boolean {
  const row = db.$client
    .prepare(
      `SELECT EXISTS (SELECT 1 FROM assignments a JOIN study_items i ON i.id = a.study_item_id
                      WHERE i.study_id = @studyId AND a.annotator_id = @annotatorId AND a.status = 'leased' AND a.lease_expires_at > @now)
           OR EXISTS (SELECT 1 FROM study_items i JOIN studies s ON s.id = i.study_id
                      WHERE i.study_id = @studyId
                        AND NOT EXISTS (SELECT 1 FROM assignments mine WHERE mine.study_item_id = i.id AND mine.annotator_id = @annotatorId
                                          AND (mine.status = 'submitted' OR (mine.status = 'leased' AND mine.lease_expires_at > @now)))
                        AND (SELECT count(*) FROM assignments taken WHERE taken.study_item_id = i.id
                               AND (taken.status = 'submitted' OR (taken.status = 'leased' AND taken.lease_expires_at > @now))) < s.labels_per_item) AS work`,
    )
    .get({ studyId, annotatorId, now: now.toISOString() }) as { work: number };
  return row.work === 1;
}

export type AssignmentStatus = "leased" | "submitted" | "released";

/** The annotator's assignment on an item, if any. */
export function assignmentFor(db: Db, itemId: number, annotatorId: number): { id: number; status: AssignmentStatus; leaseExpiresAt: string } | undefined {
  return db.$client
    .prepare(`SELECT id, status, lease_expires_at AS leaseExpiresAt FROM assignments WHERE study_item_id = ? AND annotator_id = ?`)
    .get(itemId, annotatorId) as { id: number; status: AssignmentStatus; leaseExpiresAt: string } | undefined;
}

// ---------- assignment rows written by label submits and crowd channels ----------

/** Slots of an item taken by a lease or a submitted label. */
export function takenSlots(db: Db, itemId: number): number {
  return db
    .select({ n: sql<number>`count(*)` })
    .from(schema.assignments)
    .where(and(eq(schema.assignments.studyItemId, itemId), ne(schema.assignments.status, "released")))
    .get()!.n;
}

/** Marks an assignment submitted (its first submit time is kept). */
export function markSubmitted(db: Db, assignmentId: number, at: string): void {
  db.update(schema.assignments)
    .set({ status: "submitted", submittedAt: sql`coalesce(${schema.assignments.submittedAt}, ${at})` })
    .where(eq(schema.assignments.id, assignmentId))
    .run();
}

/** Marks the annotator's assignment on the item submitted, creating it when a channel handed out the work. */
export function upsertSubmitted(db: Db, itemId: number, annotatorId: number, at: string): void {
  db.insert(schema.assignments)
    .values({ studyItemId: itemId, annotatorId, status: "submitted", leasedAt: at, leaseExpiresAt: at, submittedAt: at })
    .onConflictDoUpdate({
      target: [schema.assignments.studyItemId, schema.assignments.annotatorId],
      set: { status: "submitted", submittedAt: sql`coalesce(${schema.assignments.submittedAt}, excluded.submitted_at)` },
    })
    .run();
}

/** Leases a fixed item to the annotator unless they hold an assignment on it (a released one is renewed). */
export function leaseFixedItem(db: Db, itemId: number, annotatorId: number, leasedAt: string, leaseExpiresAt: string): void {
  db.insert(schema.assignments)
    .values({ studyItemId: itemId, annotatorId, status: "leased", leasedAt, leaseExpiresAt })
    .onConflictDoUpdate({
      target: [schema.assignments.studyItemId, schema.assignments.annotatorId],
      set: { status: "leased", leasedAt: sql`excluded.leased_at`, leaseExpiresAt: sql`excluded.lease_expires_at` },
      where: eq(schema.assignments.status, "released"),
    })
    .run();
}

/** When the annotator's assignment on the item was leased, if they have one. */
export function leasedAt(db: Db, itemId: number, annotatorId: number): string | null {
  const row = db
    .select({ leasedAt: schema.assignments.leasedAt })
    .from(schema.assignments)
    .where(and(eq(schema.assignments.studyItemId, itemId), eq(schema.assignments.annotatorId, annotatorId)))
    .get();
  return row?.leasedAt ?? null;
}

/** Frees every item the annotator still holds in the study. */
export function releaseLeasesOf(db: Db, studyId: number, annotatorId: number): void {
  const items = db.select({ id: schema.studyItems.id }).from(schema.studyItems).where(eq(schema.studyItems.studyId, studyId));
  db.update(schema.assignments)
    .set({ status: "released" })
    .where(and(eq(schema.assignments.annotatorId, annotatorId), eq(schema.assignments.status, "leased"), inArray(schema.assignments.studyItemId, items)))
    .run();
}

/**
 * Data access for assignments: leases and submitted slots of annotators on study items. A
 * "skipped" row is the annotator passing on the item: it is no slot (others may take the item)
 * and, being unique per (item, annotator), it keeps the item from being offered to them again.
 */
import {
  and,
  asc,
  count,
  desc,
  eq,
  exists,
  gt,
  gte,
  inArray,
  isNotNull,
  lt,
  lte,
  ne,
  not,
  notExists,
  notInArray,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import { preparedOnce } from "./prepared.server.ts";
import { changedRows, rawRow, type Db } from "../db.server.ts";

const { allocationCursors, assignments, studyItems, studies, annotators, labels } = schema;

export type AssignmentStatus = "leased" | "submitted" | "released" | "skipped";

/** Statuses that hold none of an item's k slots. */
const NO_SLOT: AssignmentStatus[] = ["released", "skipped"];

/**
 * Whether an assignment row is verified work (issue 29, "no stranger holds a place"): its annotator
 * is an account or a signed-link worker, or its label on the item has been confirmed (counted or
 * surplus). Only verified rows hold one of an item's k places; rows of unverified crowd identities
 * (MTurk ExternalQuestion, Prolific, before their platform confirms the work) are served beyond them.
 */
function verifiedRow(db: Db, a: typeof assignments) {
  const trusted = db
    .select({ one: sql`1` })
    .from(annotators)
    .where(and(eq(annotators.id, a.annotatorId), or(ne(annotators.role, "crowd"), eq(annotators.channel, "link"))));
  const confirmed = db
    .select({ one: sql`1` })
    .from(labels)
    .where(
      and(eq(labels.studyItemId, a.studyItemId), eq(labels.annotatorId, a.annotatorId), ne(labels.status, "pending")),
    );
  return or(exists(trusted), exists(confirmed)) as SQL;
}

/**
 * How long an unverified identity's pending label keeps its place among unverified askers (its platform should confirm
 * it by then).
 */
export const PENDING_HOLD_HOURS = 24;

/**
 * An unverified row that still holds a place among unverified askers: a lease (it ends with its
 * lease time) or a pending label younger than PENDING_HOLD_HOURS. Older pending labels hold
 * nothing, so forged ids must keep coming to keep an item away, and the entry limits stop that.
 */
function heldByUnverified(db: Db, a: typeof assignments, pendingSince: SQL | string | ReturnType<typeof p>) {
  return and(not(verifiedRow(db, a)), or(eq(a.status, "leased"), gt(a.submittedAt, pendingSince)));
}

// Allocation runs on every task request, so its queries are prepared once per connection.
const p = sql.placeholder;

// Driven by the status and expiry of the assignment rows, not by the study's items: a scan of
// the study's items cost one index seek per item (0.25 ms at 1,300 items) on every task request.
// The literal 'leased' (not a bound parameter) lets SQLite use the partial index
// assignments_leased_expiry_idx: a range read of the lapsed leases only.
const releaseEnded = preparedOnce((db) =>
  db
    .update(assignments)
    .set({ status: "released" })
    .where(
      and(
        sql`${assignments.status} = 'leased'`,
        lte(assignments.leaseExpiresAt, p("now")),
        exists(
          db
            .select({ one: sql`1` })
            .from(studyItems)
            .where(and(eq(studyItems.id, assignments.studyItemId), eq(studyItems.studyId, p("studyId")))),
        ),
      ),
    )
    .prepare(),
);

/** Marks the study's leases that ended by `now` as released; returns how many. */
export async function releaseLeasesEndedBy(db: Db, studyId: number, now: string): Promise<number> {
  return changedRows(await releaseEnded(db).execute({ studyId, now }));
}

const held = preparedOnce((db) =>
  db
    .select({
      assignmentId: assignments.id,
      itemId: assignments.studyItemId,
      leaseExpiresAt: assignments.leaseExpiresAt,
    })
    .from(assignments)
    .innerJoin(studyItems, eq(studyItems.id, assignments.studyItemId))
    .where(
      and(
        eq(studyItems.studyId, p("studyId")),
        eq(assignments.annotatorId, p("annotatorId")),
        eq(assignments.status, "leased"),
      ),
    )
    // "+position": ordering by the bare column made SQLite walk every item of the study in
    // order; as an expression, it starts from the annotator's few leased rows instead.
    .orderBy(sql`+${studyItems.position}`)
    .limit(1)
    .prepare(),
);

/** The annotator's first leased item in the study (by position), if any. */
export async function heldLease(db: Db, studyId: number, annotatorId: number) {
  return (await held(db).execute({ studyId, annotatorId }))[0];
}

const firstOpen = preparedOnce((db) => {
  const mine = db
    .select({ one: sql`1` })
    .from(assignments)
    .where(
      and(
        eq(assignments.studyItemId, studyItems.id),
        eq(assignments.annotatorId, p("annotatorId")),
        ne(assignments.status, "released"),
      ),
    );
  const live = and(eq(assignments.studyItemId, studyItems.id), notInArray(assignments.status, NO_SLOT));
  const verified = db
    .select({ n: count() })
    .from(assignments)
    .where(and(live, verifiedRow(db, assignments)));
  const unverified = db
    .select({ n: count() })
    .from(assignments)
    .where(and(live, heldByUnverified(db, assignments, p("pendingSince"))));
  return db
    .select({ id: studyItems.id })
    .from(studyItems)
    .where(
      and(
        eq(studyItems.studyId, p("studyId")),
        gte(studyItems.position, p("from")),
        notExists(mine),
        sql`${verified} + ${p("countUnverified")} * ${unverified} < ${p("k")}`,
      ),
    )
    .orderBy(asc(studyItems.position))
    .limit(1)
    .prepare();
});

const cursorOf = preparedOnce((db) =>
  db
    .select({ openFrom: allocationCursors.openFrom })
    .from(allocationCursors)
    .where(eq(allocationCursors.studyId, p("studyId")))
    .prepare(),
);

/** Where allocation starts looking in the study: every item before this position has its k verified places taken. */
export async function allocationCursor(db: Db, studyId: number): Promise<number> {
  return (await cursorOf(db).execute({ studyId }))[0]?.openFrom ?? 0;
}

// The first item at or after `from` with a verified place free: a read of the fill frontier only, since the cursor
// never falls behind it by more than what was filled since the last allocation.
const cursorMoves = preparedOnce((db) => {
  const verified = db
    .select({ n: count() })
    .from(assignments)
    .where(
      and(
        eq(assignments.studyItemId, studyItems.id),
        notInArray(assignments.status, NO_SLOT),
        verifiedRow(db, assignments),
      ),
    );
  const notFull = db
    .select({ position: studyItems.position })
    .from(studyItems)
    .where(and(eq(studyItems.studyId, p("studyId")), gte(studyItems.position, p("from")), sql`${verified} < ${p("k")}`))
    .orderBy(asc(studyItems.position))
    .limit(1)
    .prepare();
  const end = db
    .select({ last: sql<number | null>`max(${studyItems.position})` })
    .from(studyItems)
    .where(eq(studyItems.studyId, p("studyId")))
    .prepare();
  const save = db
    .insert(allocationCursors)
    .values({ studyId: p("studyId"), openFrom: p("openFrom") })
    .onConflictDoUpdate({ target: allocationCursors.studyId, set: { openFrom: sql`excluded.open_from` } })
    .prepare();
  return { notFull, end, save };
});

/**
 * Moves the study's allocation cursor past the items whose k places verified work holds (inside the allocation's
 * write transaction); returns it. Triggers (migration 0026) move it back when a place frees up.
 */
export async function advanceAllocationCursor(db: Db, studyId: number, k: number): Promise<number> {
  const from = await allocationCursor(db, studyId);
  const q = cursorMoves(db);
  const open = (await q.notFull.execute({ studyId, from, k }))[0];
  const last = open ? null : (await q.end.execute({ studyId }))[0]?.last;
  const to = open ? open.position : last == null ? from : last + 1;
  if (to !== from) await q.save.execute({ studyId, openFrom: to });
  return to;
}

const pendingSinceAt = (now: string) => new Date(Date.parse(now) - PENDING_HOLD_HOURS * 3_600_000).toISOString();

/**
 * The first item (by position) the annotator has no live or skipped row on and that still has a
 * place for them: a verified annotator counts verified rows only, so strangers never keep an item
 * from its k; an unverified one counts unverified rows that still hold a place too, so honest
 * unverified workers spread over the items instead of piling onto one. The search starts at `from`, the study's
 * allocation cursor (items before it are full for every asker), so it does not walk the filled items.
 */
export async function firstOpenItem(
  db: Db,
  studyId: number,
  annotatorId: number,
  k: number,
  askerVerified = true,
  now = new Date().toISOString(),
  fromGiven?: number,
): Promise<number | undefined> {
  const from = fromGiven ?? (await allocationCursor(db, studyId));
  return (
    await firstOpen(db).execute({
      studyId,
      from,
      annotatorId,
      k,
      countUnverified: askerVerified ? 0 : 1,
      pendingSince: pendingSinceAt(now),
    })
  )[0]?.id;
}

const lease = preparedOnce((db) =>
  db
    .insert(assignments)
    .values({
      studyItemId: p("itemId"),
      annotatorId: p("annotatorId"),
      status: "leased",
      leasedAt: p("leasedAt"),
      leaseExpiresAt: p("leaseExpiresAt"),
    })
    .onConflictDoUpdate({
      target: [assignments.studyItemId, assignments.annotatorId],
      set: { status: "leased", leasedAt: sql`excluded.leased_at`, leaseExpiresAt: sql`excluded.lease_expires_at` },
    })
    .returning({ id: assignments.id })
    .prepare(),
);

/** Leases an item; an annotator whose lease on it lapsed takes the same row again. Returns the assignment id. */
export async function upsertLease(
  db: Db,
  itemId: number,
  annotatorId: number,
  leasedAt: string,
  leaseExpiresAt: string,
): Promise<number> {
  return (await lease(db).execute({ itemId, annotatorId, leasedAt, leaseExpiresAt }))[0]!.id;
}

/** Whether the annotator holds a live lease in the study, or an item still has a free place for them (read-only). */
export async function hasOpenWork(
  db: Db,
  studyId: number,
  annotatorId: number,
  now: string,
  askerVerified = true,
): Promise<boolean> {
  const live = (a: typeof assignments) =>
    or(eq(a.status, "submitted"), and(eq(a.status, "leased"), gt(a.leaseExpiresAt, now)));
  const holds = db
    .select({ one: sql`1` })
    .from(assignments)
    .innerJoin(studyItems, eq(studyItems.id, assignments.studyItemId))
    .where(
      and(
        eq(studyItems.studyId, studyId),
        eq(assignments.annotatorId, annotatorId),
        eq(assignments.status, "leased"),
        gt(assignments.leaseExpiresAt, now),
      ),
    );
  const mine = db
    .select({ one: sql`1` })
    .from(assignments)
    .where(
      and(
        eq(assignments.studyItemId, studyItems.id),
        eq(assignments.annotatorId, annotatorId),
        or(live(assignments), eq(assignments.status, "skipped")),
      ),
    );
  const onItem = and(eq(assignments.studyItemId, studyItems.id), live(assignments));
  const verified = db
    .select({ n: count() })
    .from(assignments)
    .where(and(onItem, verifiedRow(db, assignments)));
  const unverified = db
    .select({ n: count() })
    .from(assignments)
    .where(and(onItem, heldByUnverified(db, assignments, pendingSinceAt(now))));
  const open = db
    .select({ one: sql`1` })
    .from(studyItems)
    .innerJoin(studies, eq(studies.id, studyItems.studyId))
    .where(
      and(
        eq(studyItems.studyId, studyId),
        notExists(mine),
        sql`${verified} + ${askerVerified ? 0 : 1} * ${unverified} < ${studies.labelsPerItem}`,
      ),
    );
  // SQLite answers 1 or 0, PostgreSQL true or false.
  return Boolean(
    (await rawRow<{ work: number | boolean }>(db, sql`select ${or(exists(holds), exists(open))} as work`))?.work,
  );
}

const byItemAndAnnotator = preparedOnce((db) =>
  db
    .select({
      id: assignments.id,
      status: assignments.status,
      leaseExpiresAt: assignments.leaseExpiresAt,
      submittedAt: assignments.submittedAt,
      shownAt: assignments.shownAt,
    })
    .from(assignments)
    .where(and(eq(assignments.studyItemId, p("itemId")), eq(assignments.annotatorId, p("annotatorId"))))
    .prepare(),
);

export interface AssignmentRow {
  id: number;
  status: AssignmentStatus;
  leaseExpiresAt: string;
  submittedAt: string | null;
  /** When a page first served the item to the annotator; null: never. */
  shownAt: string | null;
}

export async function findAssignment(db: Db, itemId: number, annotatorId: number): Promise<AssignmentRow | undefined> {
  return (await byItemAndAnnotator(db).execute({ itemId, annotatorId }))[0] as AssignmentRow | undefined;
}

/** Leases in the study still running at `now`. */
export async function activeLeases(
  db: Db,
  studyId: number,
  now: string,
): Promise<{ itemId: number; annotatorId: number; leaseExpiresAt: string }[]> {
  return await db
    .select({
      itemId: assignments.studyItemId,
      annotatorId: assignments.annotatorId,
      leaseExpiresAt: assignments.leaseExpiresAt,
    })
    .from(assignments)
    .innerJoin(studyItems, eq(studyItems.id, assignments.studyItemId))
    .where(and(eq(studyItems.studyId, studyId), eq(assignments.status, "leased"), gt(assignments.leaseExpiresAt, now)));
}

const countsByStatus = preparedOnce((db) =>
  db
    .select({ status: assignments.status, n: count() })
    .from(assignments)
    .innerJoin(studyItems, eq(studyItems.id, assignments.studyItemId))
    .where(and(eq(studyItems.studyId, p("studyId")), eq(assignments.annotatorId, p("annotatorId"))))
    .groupBy(assignments.status)
    .prepare(),
);

/** How many of the study's items the annotator holds in each status (one query: the task page asks on every item). */
export async function statusCounts(
  db: Db,
  studyId: number,
  annotatorId: number,
): Promise<Record<AssignmentStatus, number>> {
  const counts: Record<AssignmentStatus, number> = { leased: 0, submitted: 0, released: 0, skipped: 0 };
  const rows = await countsByStatus(db).execute({ studyId, annotatorId });
  for (const { status, n } of rows) counts[status as AssignmentStatus] = n;
  return counts;
}

/** Everyone who holds or held an item in the study, with their display name. */
export async function assignedAnnotators(db: Db, studyId: number): Promise<{ id: number; name: string }[]> {
  return await db
    .selectDistinct({ id: annotators.id, name: annotators.displayName })
    .from(annotators)
    .innerJoin(assignments, eq(assignments.annotatorId, annotators.id))
    .innerJoin(studyItems, eq(studyItems.id, assignments.studyItemId))
    .where(eq(studyItems.studyId, studyId));
}

/** Places of an item taken by verified work, leased or submitted (a skip takes none; unverified rows sit beyond k). */
export async function takenSlots(db: Db, itemId: number): Promise<number> {
  return (
    await db
      .select({ n: sql<number>`count(*)` })
      .from(assignments)
      .where(
        and(eq(assignments.studyItemId, itemId), notInArray(assignments.status, NO_SLOT), verifiedRow(db, assignments)),
      )
      .limit(1)
  )[0]!.n;
}

/** Marks an assignment skipped, with when and the annotator's optional reason. */
export async function markSkipped(db: Db, assignmentId: number, at: string, reason: string | null): Promise<void> {
  await db
    .update(assignments)
    .set({ status: "skipped", skippedAt: at, skipReason: reason })
    .where(eq(assignments.id, assignmentId));
}

/**
 * The annotator's submitted item in the study submitted (first) most recently before the
 * assignment `before` (its first submit time, then its id for submits in the same millisecond;
 * null: the latest of all). Repeated undo walks back through their work this way.
 */
export async function submittedItemBefore(
  db: Db,
  studyId: number,
  annotatorId: number,
  before: { submittedAt: string; id: number } | null,
): Promise<number | undefined> {
  const q = submittedBefore(db);
  return (
    before === null
      ? (await q.latest.execute({ studyId, annotatorId }))[0]
      : (await q.before.execute({ studyId, annotatorId, submittedAt: before.submittedAt, id: before.id }))[0]
  )?.itemId;
}

// Asked on every task page (can the annotator undo?): prepared once per connection, with and without a bound.
const submittedBefore = preparedOnce((db) => {
  const query = (bound: SQL | undefined) =>
    db
      .select({ itemId: assignments.studyItemId })
      .from(assignments)
      .innerJoin(studyItems, eq(studyItems.id, assignments.studyItemId))
      .where(
        and(
          eq(studyItems.studyId, p("studyId")),
          eq(assignments.annotatorId, p("annotatorId")),
          eq(assignments.status, "submitted"),
          isNotNull(assignments.submittedAt),
          bound,
        ),
      )
      .orderBy(desc(assignments.submittedAt), desc(assignments.id))
      .limit(1)
      .prepare();
  const at = p("submittedAt");
  return {
    latest: query(undefined),
    before: query(
      or(lt(assignments.submittedAt, at), and(eq(assignments.submittedAt, at), lt(assignments.id, p("id")))),
    ),
  };
});

/** Marks an assignment submitted (its first submit time is kept). */
const submitted = preparedOnce((db) =>
  db
    .update(assignments)
    .set({ status: "submitted", submittedAt: sql`coalesce(${assignments.submittedAt}, ${p("at")})` })
    .where(eq(assignments.id, p("assignmentId")))
    .prepare(),
);

export async function markSubmitted(db: Db, assignmentId: number, at: string): Promise<void> {
  await submitted(db).execute({ assignmentId, at });
}

// Only the first showing is kept, so a reload or a revisit never moves it.
const shown = preparedOnce((db) =>
  db
    .update(assignments)
    .set({ shownAt: sql`${p("at")}` })
    .where(and(eq(assignments.id, p("assignmentId")), sql`${assignments.shownAt} is null`))
    .prepare(),
);

/** Records when the item was first on a page served to the assignment's annotator (a later call changes nothing). */
export async function markShown(db: Db, assignmentId: number, at: string): Promise<void> {
  await shown(db).execute({ assignmentId, at });
}

/** Marks the annotator's assignment on the item submitted, creating it when a channel handed out the work. */
export async function upsertSubmitted(db: Db, itemId: number, annotatorId: number, at: string): Promise<void> {
  await db
    .insert(assignments)
    .values({
      studyItemId: itemId,
      annotatorId,
      status: "submitted",
      leasedAt: at,
      leaseExpiresAt: at,
      submittedAt: at,
    })
    .onConflictDoUpdate({
      target: [assignments.studyItemId, assignments.annotatorId],
      set: { status: "submitted", submittedAt: sql`coalesce(${assignments.submittedAt}, excluded.submitted_at)` },
    });
}

/** Leases a fixed item to the annotator unless they hold an assignment on it (a released one is renewed). */
export async function leaseFixedItem(
  db: Db,
  itemId: number,
  annotatorId: number,
  leasedAt: string,
  leaseExpiresAt: string,
): Promise<void> {
  await db
    .insert(assignments)
    .values({ studyItemId: itemId, annotatorId, status: "leased", leasedAt, leaseExpiresAt })
    .onConflictDoUpdate({
      target: [assignments.studyItemId, assignments.annotatorId],
      set: { status: "leased", leasedAt: sql`excluded.leased_at`, leaseExpiresAt: sql`excluded.lease_expires_at` },
      where: eq(assignments.status, "released"),
    });
}

/** When the annotator's assignment on the item was leased, if they have one. */
export async function leasedAt(db: Db, itemId: number, annotatorId: number): Promise<string | null> {
  const row = (
    await db
      .select({ leasedAt: assignments.leasedAt })
      .from(assignments)
      .where(and(eq(assignments.studyItemId, itemId), eq(assignments.annotatorId, annotatorId)))
      .limit(1)
  )[0];
  return row?.leasedAt ?? null;
}

/** Frees every item the annotator still holds in the study. */
export async function releaseLeasesOf(db: Db, studyId: number, annotatorId: number): Promise<void> {
  const items = db.select({ id: studyItems.id }).from(studyItems).where(eq(studyItems.studyId, studyId));
  await db
    .update(assignments)
    .set({ status: "released" })
    .where(
      and(
        eq(assignments.annotatorId, annotatorId),
        eq(assignments.status, "leased"),
        inArray(assignments.studyItemId, items),
      ),
    );
}

/**
 * The label store: labels, their append-only revisions and autosaved drafts, and the label reads of
 * the dashboard and exports. Data access only; what may be written is decided by the submit service
 * (annotation/submit.server.ts).
 */
import { and, asc, countDistinct, desc, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { LabelStatus } from "../../domain/label-status.ts";
import type { LabelPayload } from "../../task-types/registry.ts";
import type { Db } from "../db.server.ts";
import { preparedOnce } from "./prepared.server.ts";

const { labels, labelRevisions, labelDrafts, studyItems, annotators, snippets } = schema;

// Read on every submit (idempotency): prepared once per connection.
const byClientToken = preparedOnce((db) =>
  db
    .select({
      labelId: labelRevisions.labelId,
      revision: labelRevisions.revision,
      annotatorId: labels.annotatorId,
      itemId: labels.studyItemId,
    })
    .from(labelRevisions)
    .innerJoin(labels, eq(labels.id, labelRevisions.labelId))
    .where(eq(labelRevisions.clientToken, sql.placeholder("clientToken")))
    .prepare(),
);

/** The revision a client token was stored with, and whose label it is. */
export async function revisionByClientToken(
  db: Db,
  clientToken: string,
): Promise<{ labelId: number; revision: number; annotatorId: number; itemId: number } | undefined> {
  return (await byClientToken(db).execute({ clientToken }))[0];
}

const revisionQueries = preparedOnce((db) => ({
  upsertLabel: db
    .insert(labels)
    .values({
      studyItemId: sql.placeholder("itemId"),
      annotatorId: sql.placeholder("annotatorId"),
      status: sql`${sql.placeholder("status")}`,
    })
    // A revision never changes the label's status (only confirmation does).
    .onConflictDoUpdate({
      target: [labels.studyItemId, labels.annotatorId],
      set: { annotatorId: sql`excluded.annotator_id` },
    })
    .returning({ labelId: labels.id, status: labels.status })
    .prepare(),
  nextRevision: db
    .select({ next: sql<number>`coalesce(max(${labelRevisions.revision}), 0) + 1` })
    .from(labelRevisions)
    .where(eq(labelRevisions.labelId, sql.placeholder("labelId")))
    .prepare(),
  insertRevision: db
    .insert(labelRevisions)
    .values({
      labelId: sql.placeholder("labelId"),
      revision: sql.placeholder("revision"),
      payload: sql`${sql.placeholder("payload")}`,
      clientToken: sql.placeholder("clientToken"),
      secondsOnTask: sql.placeholder("secondsOnTask"),
      comment: sql.placeholder("comment"),
    })
    .prepare(),
  deleteDraft: db
    .delete(labelDrafts)
    .where(
      and(
        eq(labelDrafts.studyItemId, sql.placeholder("itemId")),
        eq(labelDrafts.annotatorId, sql.placeholder("annotatorId")),
      ),
    )
    .prepare(),
}));

export interface LabelRevisionInput {
  itemId: number;
  annotatorId: number;
  payload: LabelPayload;
  clientToken: string | null;
  secondsOnTask: number | null;
  /** The annotator's comment, already checked (labelCommentSchema); absent means none. */
  comment?: string | null;
  /**
   * The status a new label is created with (annotation/label-status.server.ts decides it); a revision keeps the
   * label's.
   */
  statusIfNew: LabelStatus;
}

/**
 * Appends a revision to the annotator's label on the item (creating the label on first submit)
 * and clears their draft. Call inside a transaction, after validating the payload.
 */
export async function writeLabelRevision(
  db: Db,
  input: LabelRevisionInput,
): Promise<{ labelId: number; revision: number; status: LabelStatus }> {
  const { itemId, annotatorId } = input;
  const q = revisionQueries(db);
  const { labelId, status } = (await q.upsertLabel.execute({ itemId, annotatorId, status: input.statusIfNew }))[0]!;
  const { next } = (await q.nextRevision.execute({ labelId }))[0]!;
  await q.insertRevision.execute({
    labelId,
    revision: next,
    payload: JSON.stringify(input.payload),
    clientToken: input.clientToken,
    secondsOnTask: input.secondsOnTask,
    comment: input.comment ?? null,
  });
  await q.deleteDraft.execute({ itemId, annotatorId });
  return { labelId, revision: next, status };
}

const statusQueries = preparedOnce((db) => ({
  countedOnItem: db
    .select({ n: sql<number>`count(*)` })
    .from(labels)
    .where(and(eq(labels.studyItemId, sql.placeholder("itemId")), eq(labels.status, "counted")))
    .prepare(),
}));

/** Counted labels on an item (k caps this number). */
export async function countedLabelsOnItem(db: Db, itemId: number): Promise<number> {
  return (await statusQueries(db).countedOnItem.execute({ itemId }))[0]!.n;
}

export async function labelStatusOf(db: Db, labelId: number): Promise<LabelStatus | undefined> {
  return (await db.select({ status: labels.status }).from(labels).where(eq(labels.id, labelId)).limit(1))[0]?.status;
}

export async function setLabelStatus(db: Db, labelId: number, status: LabelStatus): Promise<void> {
  await db.update(labels).set({ status }).where(eq(labels.id, labelId));
}

/** The pending labels one annotator has in a study, oldest first (a confirmed Prolific session counts them). */
export async function pendingLabelsOf(
  db: Db,
  studyId: number,
  annotatorId: number,
): Promise<{ labelId: number; itemId: number }[]> {
  return await db
    .select({ labelId: labels.id, itemId: labels.studyItemId })
    .from(labels)
    .innerJoin(studyItems, eq(studyItems.id, labels.studyItemId))
    .where(and(eq(studyItems.studyId, studyId), eq(labels.annotatorId, annotatorId), eq(labels.status, "pending")))
    .orderBy(asc(labels.id));
}

/** Labels per status in a study (statuses without labels are absent). */
export async function labelStatusCounts(db: Db, studyId: number): Promise<Partial<Record<LabelStatus, number>>> {
  const rows = await db
    .select({ status: labels.status, n: sql<number>`count(*)` })
    .from(labels)
    .innerJoin(studyItems, eq(studyItems.id, labels.studyItemId))
    .where(eq(studyItems.studyId, studyId))
    .groupBy(labels.status);
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/** The payload of a label's latest revision, as stored (JSON text). */
export async function latestPayloadJson(db: Db, labelId: number): Promise<string | undefined> {
  const row = (
    await db
      .select({ payload: sql<string>`${labelRevisions.payload}` })
      .from(labelRevisions)
      .where(eq(labelRevisions.labelId, labelId))
      .orderBy(desc(labelRevisions.revision))
      .limit(1)
  )[0];
  return row?.payload;
}

/**
 * Payloads of a label's revisions a crowd channel wrote (stored without a client token; web submits always carry one),
 * oldest first.
 */
export async function channelRevisionPayloads(db: Db, labelId: number): Promise<unknown[]> {
  return (
    await db
      .select({ payload: labelRevisions.payload })
      .from(labelRevisions)
      .where(and(eq(labelRevisions.labelId, labelId), isNull(labelRevisions.clientToken)))
      .orderBy(asc(labelRevisions.revision))
  ).map((r) => r.payload);
}

export interface LabelRevisionView {
  labelId: number;
  itemId: number;
  studyId: number;
  annotatorId: number;
  revision: number;
  payload: LabelPayload;
  secondsOnTask: number | null;
  comment: string | null;
  createdAt: string;
}

// Read on every task page: prepared once per connection.
const latestOwn = preparedOnce((db) =>
  db
    .select({
      labelId: labels.id,
      itemId: labels.studyItemId,
      studyId: studyItems.studyId,
      annotatorId: labels.annotatorId,
      revision: labelRevisions.revision,
      payload: labelRevisions.payload,
      secondsOnTask: labelRevisions.secondsOnTask,
      comment: labelRevisions.comment,
      createdAt: labelRevisions.createdAt,
    })
    .from(labels)
    .innerJoin(labelRevisions, eq(labelRevisions.labelId, labels.id))
    .innerJoin(studyItems, eq(studyItems.id, labels.studyItemId))
    .where(
      and(eq(labels.studyItemId, sql.placeholder("itemId")), eq(labels.annotatorId, sql.placeholder("annotatorId"))),
    )
    .orderBy(desc(labelRevisions.revision))
    .limit(1)
    .prepare(),
);

/** Latest revision of one annotator's label on an item, or null. */
export async function latestOwnLabel(db: Db, itemId: number, annotatorId: number): Promise<LabelRevisionView | null> {
  const row = (await latestOwn(db).execute({ itemId, annotatorId }))[0];
  return row ? { ...row, payload: row.payload as LabelPayload } : null;
}

/** A label with its item, study and author; undefined when there is none. */
export async function findLabel(
  db: Db,
  labelId: number,
): Promise<{ id: number; itemId: number; annotatorId: number; studyId: number } | undefined> {
  return (
    await db
      .select({
        id: labels.id,
        itemId: labels.studyItemId,
        annotatorId: labels.annotatorId,
        studyId: studyItems.studyId,
      })
      .from(labels)
      .innerJoin(studyItems, eq(studyItems.id, labels.studyItemId))
      .where(eq(labels.id, labelId))
      .limit(1)
  )[0];
}

/**
 * Every revision of a label, oldest first; `fromSite` is false for revisions a crowd channel wrote (they carry no
 * client token).
 */
export async function labelRevisionsOf(
  db: Db,
  labelId: number,
): Promise<
  {
    revision: number;
    payload: LabelPayload;
    secondsOnTask: number | null;
    comment: string | null;
    createdAt: string;
    fromSite: boolean;
  }[]
> {
  return (
    await db
      .select({
        revision: labelRevisions.revision,
        payload: labelRevisions.payload,
        secondsOnTask: labelRevisions.secondsOnTask,
        comment: labelRevisions.comment,
        createdAt: labelRevisions.createdAt,
        clientToken: labelRevisions.clientToken,
      })
      .from(labelRevisions)
      .where(eq(labelRevisions.labelId, labelId))
      .orderBy(asc(labelRevisions.revision))
  ).map(({ clientToken, ...r }) => ({ ...r, payload: r.payload as LabelPayload, fromSite: clientToken !== null }));
}

/** The annotator's own labels in a study with their latest revision, the most recently saved first (My labels). */
export async function ownLabels(
  db: Db,
  studyId: number,
  annotatorId: number,
): Promise<{ labelId: number; itemId: number; revisions: number; updatedAt: string; payload: LabelPayload }[]> {
  const latest = latestRevisionOf(db);
  return (
    await db
      .select({
        labelId: labels.id,
        itemId: labels.studyItemId,
        revisions: labelRevisions.revision,
        updatedAt: labelRevisions.createdAt,
        payload: labelRevisions.payload,
      })
      .from(labels)
      .innerJoin(studyItems, eq(studyItems.id, labels.studyItemId))
      .innerJoin(labelRevisions, and(eq(labelRevisions.labelId, labels.id), eq(labelRevisions.revision, latest)))
      .where(and(eq(studyItems.studyId, studyId), eq(labels.annotatorId, annotatorId)))
      // Revision rows are numbered as they are written: the highest is the most recently saved.
      .orderBy(desc(labelRevisions.id))
  ).map((r) => ({ ...r, payload: r.payload as LabelPayload }));
}

/** Labels the annotator has in the study (one per item; revisions do not count twice). */
export async function labelCountInStudy(db: Db, studyId: number, annotatorId: number): Promise<number> {
  return (
    await db
      .select({ n: sql<number>`count(*)` })
      .from(labels)
      .innerJoin(studyItems, eq(studyItems.id, labels.studyItemId))
      .where(and(eq(studyItems.studyId, studyId), eq(labels.annotatorId, annotatorId)))
      .limit(1)
  )[0]!.n;
}

/** Each timed label's seconds in a study, summed over its revisions. */
export async function timedLabelSeconds(db: Db, studyId: number): Promise<number[]> {
  const total = sql<number | null>`sum(${labelRevisions.secondsOnTask})`;
  return (
    await db
      .select({ s: total })
      .from(labels)
      .innerJoin(studyItems, eq(studyItems.id, labels.studyItemId))
      .innerJoin(labelRevisions, eq(labelRevisions.labelId, labels.id))
      .where(eq(studyItems.studyId, studyId))
      .groupBy(labels.id)
      .having(sql`${total} IS NOT NULL`)
  ).map((r) => r.s as number);
}

// ---------- drafts ----------

/** Stores (or replaces) the annotator's draft on an item; `json` is the payload already serialised. */
export async function upsertDraft(
  db: Db,
  itemId: number,
  annotatorId: number,
  json: string,
  at: string,
): Promise<void> {
  await db
    .insert(labelDrafts)
    .values({ studyItemId: itemId, annotatorId, payload: sql`${json}`, updatedAt: at })
    .onConflictDoUpdate({
      target: [labelDrafts.studyItemId, labelDrafts.annotatorId],
      set: { payload: sql`excluded.payload`, updatedAt: sql`excluded.updated_at` },
    });
}

const draftOf = preparedOnce((db) =>
  db
    .select({ payload: labelDrafts.payload })
    .from(labelDrafts)
    .where(
      and(
        eq(labelDrafts.studyItemId, sql.placeholder("itemId")),
        eq(labelDrafts.annotatorId, sql.placeholder("annotatorId")),
      ),
    )
    .prepare(),
);

export async function loadDraft(db: Db, itemId: number, annotatorId: number): Promise<unknown> {
  const row = (await draftOf(db).execute({ itemId, annotatorId }))[0];
  return row ? row.payload : null;
}

// ---------- reads for the dashboard, exports and carry-forward ----------

/** The correlated subquery "the label's highest revision number", for picking each label's latest revision. */
function latestRevisionOf(db: Db) {
  return db
    .select({ n: sql`max(${labelRevisions.revision})` })
    .from(labelRevisions)
    .where(eq(labelRevisions.labelId, labels.id));
}

/** Latest revision of every label in the given studies, with its status, annotator and summed time on task. */
export async function latestLabelRows(db: Db, studyIds: readonly number[]) {
  if (studyIds.length === 0) return [];
  const latest = latestRevisionOf(db);
  return await db
    .select({
      labelId: labels.id,
      itemId: labels.studyItemId,
      studyId: studyItems.studyId,
      annotatorId: labels.annotatorId,
      status: labels.status,
      annotatorName: annotators.displayName,
      pool: annotators.role,
      revision: labelRevisions.revision,
      payload: labelRevisions.payload,
      submittedAt: labelRevisions.createdAt,
      comment: labelRevisions.comment,
      secondsOnTask: sql<
        number | null
      >`(select sum(x.seconds_on_task) from ${labelRevisions} x where x.label_id = ${labels.id})`,
    })
    .from(labels)
    .innerJoin(studyItems, eq(studyItems.id, labels.studyItemId))
    .innerJoin(annotators, eq(annotators.id, labels.annotatorId))
    .innerJoin(labelRevisions, and(eq(labelRevisions.labelId, labels.id), eq(labelRevisions.revision, latest)))
    .where(inArray(studyItems.studyId, [...studyIds]))
    .orderBy(asc(studyItems.studyId), asc(studyItems.position), asc(labels.annotatorId));
}

/** Labels per study id (studies without labels are absent). */
export async function labelCountsByStudy(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .select({ studyId: studyItems.studyId, labels: countDistinct(labels.id) })
    .from(studyItems)
    .leftJoin(labels, eq(labels.studyItemId, studyItems.id))
    .groupBy(studyItems.studyId);
  return new Map(rows.map((r) => [r.studyId, r.labels]));
}

/** The payload of the annotator's latest revision on the study's item showing a run's snippet at `position`. */
export async function ownLabelOnSnippet(
  db: Db,
  studyId: number,
  annotatorId: number,
  runId: string,
  position: number,
): Promise<unknown> {
  return (await ownOnSnippet(db).execute({ studyId, annotatorId, runId, position }))[0]?.payload;
}

// Read on every consensus submit (carry-forward check): prepared once per connection.
const ownOnSnippet = preparedOnce((db) => {
  const p = sql.placeholder;
  return db
    .select({ payload: labelRevisions.payload })
    .from(studyItems)
    .innerJoin(snippets, eq(snippets.id, studyItems.snippetId))
    .innerJoin(labels, and(eq(labels.studyItemId, studyItems.id), eq(labels.annotatorId, p("annotatorId"))))
    .innerJoin(labelRevisions, eq(labelRevisions.labelId, labels.id))
    .where(
      and(eq(studyItems.studyId, p("studyId")), eq(snippets.runId, p("runId")), eq(snippets.position, p("position"))),
    )
    .orderBy(desc(labelRevisions.revision))
    .limit(1)
    .prepare();
});

/** The comments annotators stored with the latest revision of their labels in a study, newest first. */
export async function latestLabelComments(db: Db, studyId: number, limit: number) {
  const latest = latestRevisionOf(db);
  return await db
    .select({
      labelId: labels.id,
      itemId: labels.studyItemId,
      position: studyItems.position,
      annotatorName: annotators.displayName,
      revision: labelRevisions.revision,
      comment: sql<string>`${labelRevisions.comment}`,
      createdAt: labelRevisions.createdAt,
    })
    .from(labels)
    .innerJoin(studyItems, eq(studyItems.id, labels.studyItemId))
    .innerJoin(annotators, eq(annotators.id, labels.annotatorId))
    .innerJoin(labelRevisions, and(eq(labelRevisions.labelId, labels.id), eq(labelRevisions.revision, latest)))
    .where(and(eq(studyItems.studyId, studyId), isNotNull(labelRevisions.comment)))
    .orderBy(desc(labelRevisions.id))
    .limit(limit);
}

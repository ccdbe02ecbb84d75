/**
 * Read-only label queries for the dashboard, exports and the task page: latest revisions per
 * item, revision histories, label counts. (The label store's own reads and writes — submits,
 * drafts — are in label.server.ts.)
 */
import { and, asc, countDistinct, desc, eq, inArray, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import { preparedQuery, type Db } from "../db.server.ts";

const { labels, labelRevisions, studyItems, annotators, snippets } = schema;

/** Latest revision of every label in the given studies, with its annotator and summed time on task. */
export function latestLabelRows(db: Db, studyIds: readonly number[]) {
  if (studyIds.length === 0) return [];
  const latest = db.select({ n: sql`max(${labelRevisions.revision})` }).from(labelRevisions).where(eq(labelRevisions.labelId, labels.id));
  return db
    .select({
      labelId: labels.id,
      itemId: labels.studyItemId,
      studyId: studyItems.studyId,
      annotatorId: labels.annotatorId,
      annotatorName: annotators.displayName,
      pool: annotators.role,
      revision: labelRevisions.revision,
      payload: labelRevisions.payload,
      submittedAt: labelRevisions.createdAt,
      secondsOnTask: sql<number | null>`(select sum(x.seconds_on_task) from ${labelRevisions} x where x.label_id = ${labels.id})`,
    })
    .from(labels)
    .innerJoin(studyItems, eq(studyItems.id, labels.studyItemId))
    .innerJoin(annotators, eq(annotators.id, labels.annotatorId))
    .innerJoin(labelRevisions, and(eq(labelRevisions.labelId, labels.id), eq(labelRevisions.revision, latest)))
    .where(inArray(studyItems.studyId, [...studyIds]))
    .orderBy(asc(studyItems.studyId), asc(studyItems.position), asc(labels.annotatorId))
    .all();
}

/** Every revision of a label, oldest first. */
export function revisionsOf(db: Db, labelId: number) {
  return db
    .select({ revision: labelRevisions.revision, payload: labelRevisions.payload, secondsOnTask: labelRevisions.secondsOnTask, createdAt: labelRevisions.createdAt })
    .from(labelRevisions)
    .where(eq(labelRevisions.labelId, labelId))
    .orderBy(asc(labelRevisions.revision))
    .all();
}

/** Labels per study id (studies without labels are absent). */
export function labelCountsByStudy(db: Db): Map<number, number> {
  const rows = db
    .select({ studyId: studyItems.studyId, labels: countDistinct(labels.id) })
    .from(studyItems)
    .leftJoin(labels, eq(labels.studyItemId, studyItems.id))
    .groupBy(studyItems.studyId)
    .all();
  return new Map(rows.map((r) => [r.studyId, r.labels]));
}

/** The payload of the annotator's latest revision on the study's item showing a run's snippet at `position`. */
export function ownLabelOnSnippet(db: Db, studyId: number, annotatorId: number, runId: string, position: number): unknown {
  return ownOnSnippet(db).get({ studyId, annotatorId, runId, position })?.payload;
}

// Read on every consensus submit (carry-forward check): prepared once per connection.
const ownOnSnippet = preparedQuery((db) => {
  const p = sql.placeholder;
  return db
    .select({ payload: labelRevisions.payload })
    .from(studyItems)
    .innerJoin(snippets, eq(snippets.id, studyItems.snippetId))
    .innerJoin(labels, and(eq(labels.studyItemId, studyItems.id), eq(labels.annotatorId, p("annotatorId"))))
    .innerJoin(labelRevisions, eq(labelRevisions.labelId, labels.id))
    .where(and(eq(studyItems.studyId, p("studyId")), eq(snippets.runId, p("runId")), eq(snippets.position, p("position"))))
    .orderBy(desc(labelRevisions.revision))
    .limit(1)
    .prepare();
});

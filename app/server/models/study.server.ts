/** Data access for studies and their items (study_items). */
import { and, asc, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import { CONSENSUS_SNIPPET } from "../../task-types/consensus-snippet/label.ts";
import type { Db } from "../db.server.ts";
import { preparedOnce } from "./prepared.server.ts";
import { transact } from "../db-transaction.server.ts";

const { studies, studyItems, snippets, abPairs, runs } = schema;

export type StudyRow = typeof studies.$inferSelect;
export type NewStudy = typeof studies.$inferInsert;
export type ItemRow = typeof studyItems.$inferSelect;
export type NewStudyItem = Omit<typeof studyItems.$inferInsert, "id" | "studyId" | "position">;

// Read on every task request and submit: prepared once per connection.
const byId = preparedOnce((db) =>
  db
    .select()
    .from(studies)
    .where(eq(studies.id, sql.placeholder("id")))
    .prepare(),
);
const itemById = preparedOnce((db) =>
  db
    .select()
    .from(studyItems)
    .where(eq(studyItems.id, sql.placeholder("id")))
    .prepare(),
);

export async function findStudy(db: Db, studyId: number): Promise<StudyRow | undefined> {
  return (await byId(db).execute({ id: studyId }))[0];
}

export async function listStudyRows(db: Db, filter: { pool?: string } = {}): Promise<StudyRow[]> {
  return await db
    .select()
    .from(studies)
    .where(filter.pool ? eq(studies.pool, filter.pool) : undefined)
    .orderBy(asc(studies.id));
}

export async function updateStudyStatus(db: Db, studyId: number, status: "open" | "closed"): Promise<void> {
  await db.update(studies).set({ status }).where(eq(studies.id, studyId));
}

/** Inserts a study and its items (positions in the order given) in one transaction; returns the study id. */
export async function insertStudyWithItems(db: Db, study: NewStudy, items: readonly NewStudyItem[]): Promise<number> {
  return await transact(db, async (tx) => {
    const studyId = (await tx.insert(studies).values(study).returning({ id: studies.id }))[0].id;
    for (const [position, item] of items.entries()) {
      await tx.insert(studyItems).values({ ...item, studyId, position });
    }
    return studyId;
  });
}

/** Item count per study id. */
export async function itemCounts(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .select({ studyId: studyItems.studyId, items: sql<number>`count(*)` })
    .from(studyItems)
    .groupBy(studyItems.studyId);
  return new Map(rows.map((r) => [r.studyId, r.items]));
}

// Read on every task page (progress): prepared once per connection. A study's positions are 0…n−1 (items are
// only ever added, by insertStudyWithItems and appendItems, each after the last), so the count is one seek of the
// (study, position) index rather than a walk over every item.
const countOfItems = preparedOnce((db) =>
  db
    .select({ n: sql<number>`coalesce(max(${studyItems.position}) + 1, 0)` })
    .from(studyItems)
    .where(eq(studyItems.studyId, sql.placeholder("studyId")))
    .prepare(),
);

export async function itemCount(db: Db, studyId: number): Promise<number> {
  return (await countOfItems(db).execute({ studyId }))[0]?.n ?? 0;
}

export async function findItem(db: Db, itemId: number): Promise<ItemRow | undefined> {
  return (await itemById(db).execute({ id: itemId }))[0];
}

/** A study's items in study order. */
export async function itemsOfStudy(db: Db, studyId: number): Promise<ItemRow[]> {
  return await db.select().from(studyItems).where(eq(studyItems.studyId, studyId)).orderBy(asc(studyItems.position));
}

export async function studyItemIds(db: Db, studyId: number): Promise<number[]> {
  return (
    await db
      .select({ id: studyItems.id })
      .from(studyItems)
      .where(eq(studyItems.studyId, studyId))
      .orderBy(asc(studyItems.position))
  ).map((r) => r.id);
}

/** Items of the given studies with their snippet or A/B pair context, in study order. */
export async function itemsWithContext(db: Db, studyIds: readonly number[]) {
  if (studyIds.length === 0) return [];
  return await db
    .select({
      itemId: studyItems.id,
      studyId: studyItems.studyId,
      kind: studyItems.kind,
      position: studyItems.position,
      isGold: studyItems.isGold,
      gold: studyItems.gold,
      snippetId: studyItems.snippetId,
      runId: sql<string | null>`coalesce(${snippets.runId}, ${studyItems.runId})`,
      snippetPosition: snippets.position,
      startTurn: snippets.startTurn,
      endTurn: snippets.endTurn,
      isLast: snippets.isLast,
      pairId: abPairs.id,
      levelA: abPairs.levelA,
      levelB: abPairs.levelB,
      targetParty: abPairs.targetParty,
      backbone: runs.simulatorBackbone,
    })
    .from(studyItems)
    .leftJoin(snippets, eq(snippets.id, studyItems.snippetId))
    .leftJoin(abPairs, eq(abPairs.id, studyItems.abPairId))
    .leftJoin(runs, eq(runs.id, abPairs.runAId))
    .where(inArray(studyItems.studyId, [...studyIds]))
    .orderBy(asc(studyItems.studyId), asc(studyItems.position));
}

/** Other consensus studies of the crowd pool that show any of this study's snippets. */
export async function crowdStudiesOnSameSnippets(db: Db, studyId: number): Promise<number[]> {
  const ownSnippets = db
    .select({ id: studyItems.snippetId })
    .from(studyItems)
    .where(and(eq(studyItems.studyId, studyId), isNotNull(studyItems.snippetId)));
  return (
    await db
      .selectDistinct({ id: studyItems.studyId })
      .from(studyItems)
      .innerJoin(studies, eq(studies.id, studyItems.studyId))
      .where(
        and(
          eq(studies.pool, "crowd"),
          eq(studies.type, CONSENSUS_SNIPPET),
          ne(studyItems.studyId, studyId),
          inArray(studyItems.snippetId, ownSnippets),
        ),
      )
  ).map((r) => r.id);
}

/** Replaces a study's config (the caller has validated it). */
export async function setStudyConfig(db: Db, studyId: number, config: Record<string, unknown>): Promise<void> {
  await db.update(studies).set({ config }).where(eq(studies.id, studyId));
}

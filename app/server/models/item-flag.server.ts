/** Data access for item flags: an annotator's comment that an item is broken or unclear, for admins to review. */
import { and, asc, eq, isNull } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";
import { changedRows } from "../db.server.ts";

const { itemFlags, studyItems, annotators } = schema;

export async function insertItemFlag(
  db: Db,
  flag: { studyItemId: number; annotatorId: number; comment: string },
): Promise<number> {
  return (await db.insert(itemFlags).values(flag).returning({ id: itemFlags.id }))[0].id;
}

/** A study's flags, oldest first, with who raised them and the item's position. */
export async function flagsOfStudy(db: Db, studyId: number, options: { open?: boolean } = {}) {
  return await db
    .select({
      id: itemFlags.id,
      itemId: itemFlags.studyItemId,
      position: studyItems.position,
      annotatorId: itemFlags.annotatorId,
      annotatorName: annotators.displayName,
      comment: itemFlags.comment,
      createdAt: itemFlags.createdAt,
      resolvedAt: itemFlags.resolvedAt,
    })
    .from(itemFlags)
    .innerJoin(studyItems, eq(studyItems.id, itemFlags.studyItemId))
    .innerJoin(annotators, eq(annotators.id, itemFlags.annotatorId))
    .where(and(eq(studyItems.studyId, studyId), options.open ? isNull(itemFlags.resolvedAt) : undefined))
    .orderBy(asc(itemFlags.createdAt), asc(itemFlags.id));
}

export async function resolveItemFlag(db: Db, flagId: number, at: string): Promise<number> {
  return changedRows(
    await db
      .update(itemFlags)
      .set({ resolvedAt: at })
      .where(and(eq(itemFlags.id, flagId), isNull(itemFlags.resolvedAt))),
  );
}

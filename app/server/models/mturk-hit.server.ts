/** HITs created through the MTurk API (`mturk publish`), one per study item and batch. Data access only. */
import { and, asc, eq, sql } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import { rawRows, type Db } from "../db.server.ts";

const { mturkHits } = schema;

export interface StoredHit {
  hitId: string;
  studyId: number;
  itemId: number;
  rewardUsd: number;
  /** sandbox | production */
  environment: string;
}

const hitColumns = {
  hitId: mturkHits.hitId,
  environment: mturkHits.environment,
  studyId: mturkHits.studyId,
  itemId: mturkHits.studyItemId,
  rewardUsd: mturkHits.rewardUsd,
};

export async function findHit(db: Db, hitId: string): Promise<StoredHit | undefined> {
  return (await db.select(hitColumns).from(mturkHits).where(eq(mturkHits.hitId, hitId)).limit(1))[0];
}

/** The study's HITs in one environment, oldest first. */
export async function hitsOfStudy(db: Db, studyId: number, environment: string): Promise<StoredHit[]> {
  return await db
    .select(hitColumns)
    .from(mturkHits)
    .where(and(eq(mturkHits.studyId, studyId), eq(mturkHits.environment, environment)))
    .orderBy(asc(mturkHits.createdAt), asc(mturkHits.hitId));
}

/** Stores a HIT MTurk returned; a HIT already stored is left as it is. */
export async function storeHit(db: Db, values: typeof mturkHits.$inferInsert): Promise<void> {
  await db.insert(mturkHits).values(values).onConflictDoNothing({ target: mturkHits.hitId });
}

export interface ItemPublishState {
  itemId: number;
  labels: number;
  /** Every HIT stored for the item here (numbers the next batch's request token). */
  storedHits: number;
  /** Stored HITs not yet expired (or of unknown expiry): the item is on offer. */
  liveHits: number;
}

/**
 * Every item of the study with its count of counted labels (pending and surplus labels do not
 * fill one of the item's k places, nor do labels from assignments rejected on MTurk) and the HITs
 * stored for it in this environment.
 */
export async function itemPublishStates(
  db: Db,
  studyId: number,
  environment: string,
  now: Date,
): Promise<ItemPublishState[]> {
  // Aliases quoted: PostgreSQL folds unquoted names to lower case.
  return await rawRows<ItemPublishState>(
    db,
    sql`
    SELECT i.id AS "itemId",
           (SELECT count(*) FROM labels l WHERE l.study_item_id = i.id AND l.status = 'counted'
              AND NOT EXISTS (SELECT 1 FROM crowd_assignments c WHERE c.label_id = l.id AND c.status = 'rejected')) AS labels,
           (SELECT count(*) FROM mturk_hits h WHERE h.study_item_id = i.id AND h.environment = ${environment}) AS "storedHits",
           (SELECT count(*) FROM mturk_hits h WHERE h.study_item_id = i.id AND h.environment = ${environment}
              AND (h.expires_at IS NULL OR h.expires_at > ${now.toISOString()})) AS "liveHits"
    FROM study_items i WHERE i.study_id = ${studyId} ORDER BY i.position`,
  );
}

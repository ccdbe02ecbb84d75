/**
 * Data access for work_leases: who holds a piece of shared benchmark work, and until when. A
 * claim reads and writes in one write transaction (serializable on PostgreSQL), so two processes can never both see a
 * key free and both take it; a lapsed lease (its holder stopped renewing: killed, or hung) is
 * taken over by the next claim.
 */
import { and, eq, inArray } from "drizzle-orm";
import { workLeases } from "../../../db/schema.ts";
import { changedRows, type Db } from "../db.server.ts";
import { transact } from "../db-transaction.server.ts";

export type WorkLeaseRow = typeof workLeases.$inferSelect;

/** Takes the key for `holder` until `now + ttlMs` when it is free, lapsed or already the holder's; true when taken. */
export async function claimLease(db: Db, key: string, holder: string, now: number, ttlMs: number): Promise<boolean> {
  return await transact(db, async (db) => {
    const row = (await db.select().from(workLeases).where(eq(workLeases.workKey, key)).limit(1))[0];
    if (row && row.holder !== holder && row.expiresAt > now) return false;
    const lease = { holder, expiresAt: now + ttlMs };
    await db
      .insert(workLeases)
      .values({ workKey: key, ...lease })
      .onConflictDoUpdate({ target: workLeases.workKey, set: lease });
    return true;
  });
}

/** Moves the expiry of the holder's leases among `keys` to `now + ttlMs`; returns how many it still holds. */
export async function renewLeases(
  db: Db,
  holder: string,
  keys: readonly string[],
  now: number,
  ttlMs: number,
): Promise<number> {
  if (keys.length === 0) return 0;
  return changedRows(
    await db
      .update(workLeases)
      .set({ expiresAt: now + ttlMs })
      .where(and(eq(workLeases.holder, holder), inArray(workLeases.workKey, [...keys]))),
  );
}

/** Gives the key up, if the holder still has it (a lease taken over meanwhile is the new holder's). */
export async function releaseLease(db: Db, key: string, holder: string): Promise<void> {
  await db.delete(workLeases).where(and(eq(workLeases.workKey, key), eq(workLeases.holder, holder)));
}

/**
 * Deletes every lease that no longer binds anyone: lapsed at `now`, or whose holder `isVoid` says
 * has ended. A worker killed between storing its work and giving the lease up leaves such a row,
 * and no later claim would ever touch its key again.
 */
export async function sweepLeases(db: Db, now: number, isVoid: (holder: string) => boolean): Promise<number> {
  return await transact(db, async (db) => {
    const stale = (await db.select().from(workLeases))
      .filter((row) => row.expiresAt <= now || isVoid(row.holder))
      .map((row) => row.workKey);
    if (stale.length === 0) return 0;
    return changedRows(await db.delete(workLeases).where(inArray(workLeases.workKey, stale)));
  });
}

/** The live lease on the key, if another holder has one at `now`. */
export async function heldByOther(db: Db, key: string, holder: string, now: number): Promise<WorkLeaseRow | undefined> {
  const row = (await db.select().from(workLeases).where(eq(workLeases.workKey, key)).limit(1))[0];
  return row && row.holder !== holder && row.expiresAt > now ? row : undefined;
}

/**
 * Data access for work_leases: who holds a piece of shared benchmark work, and until when. A
 * claim is one statement, an insert that updates the key's row only when it is lapsed or already
 * the holder's, so two processes can never both take a key; a lapsed lease (its holder stopped
 * renewing: killed, or hung) is taken over by the next claim.
 */
import { and, eq, inArray, lte, or, sql } from "drizzle-orm";
import { workLeases } from "../../../db/schema.ts";
import { changedRows, rawRow, type Db } from "../db.server.ts";
import { dialectOf } from "../db-dialect.server.ts";
import { transact } from "../db-transaction.server.ts";

export type WorkLeaseRow = typeof workLeases.$inferSelect;

/**
 * Runs one lease statement as a write. On PostgreSQL it is atomic on its own (an insert … on
 * conflict locks the row it finds and checks it as committed): a serializable transaction around
 * it would only add round trips, and its reads conflict with every other worker's claims. On
 * SQLite it goes through `transact`, whose queue waits for another process's write lock without
 * blocking the event loop.
 */
export function leaseWrite<T>(db: Db, statement: (db: Db) => Promise<T>): Promise<T> {
  return dialectOf(db) === "postgres" ? statement(db) : transact(db, statement);
}

/** Takes the key for `holder` until `now + ttlMs` when it is free, lapsed or already the holder's; true when taken. */
export async function claimLease(db: Db, key: string, holder: string, now: number, ttlMs: number): Promise<boolean> {
  const lease = { holder, expiresAt: now + ttlMs };
  const taken = await leaseWrite(db, (db) =>
    db
      .insert(workLeases)
      .values({ workKey: key, ...lease })
      .onConflictDoUpdate({
        target: workLeases.workKey,
        set: lease,
        setWhere: or(eq(workLeases.holder, holder), lte(workLeases.expiresAt, now)),
      }),
  );
  return changedRows(taken) > 0;
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

/**
 * The clock lease times are read on: on PostgreSQL the database server's, as this machine's clock
 * plus an offset measured once (half a round trip either side), so workers on machines whose clocks
 * disagree still agree when a lease has lapsed; on SQLite, whose workers share a machine, its own.
 */
export async function leaseClock(db: Db): Promise<() => number> {
  if (dialectOf(db) !== "postgres") return Date.now;
  const before = Date.now();
  const row = await rawRow<{ ms: number }>(
    db,
    sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`,
  );
  // Whole milliseconds: lease times are bigint columns.
  const offset = Math.round(Number(row?.ms) - (before + Date.now()) / 2);
  return () => Date.now() + offset;
}

/** The live lease on the key, if another holder has one at `now`. */
export async function heldByOther(db: Db, key: string, holder: string, now: number): Promise<WorkLeaseRow | undefined> {
  const row = (await db.select().from(workLeases).where(eq(workLeases.workKey, key)).limit(1))[0];
  return row && row.holder !== holder && row.expiresAt > now ? row : undefined;
}

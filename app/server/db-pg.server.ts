/**
 * A PostgreSQL database (DATABASE_URL, or a `postgres://` URL given to a command): a node-postgres
 * pool, drizzle over db/schema-pg.ts (the same tables as db/schema.ts), and the migrations of
 * db/migrations-pg applied on open, as openDatabase does for SQLite.
 */
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { pgTables } from "../../db/schema-pg.ts";
import { markPostgres, migrationsDir, type Db } from "./db-dialect.server.ts";

export type PgDb = NodePgDatabase<typeof pgTables> & { $client: pg.Pool };

/*
 * The queries are written once, against db/schema.ts's tables, and run on both engines. For
 * PostgreSQL to hand back what SQLite does: int8 (bigint) columns as JS numbers (every integer
 * column is bigint, as SQLite's integers are 64-bit), and json columns as their text, which
 * drizzle's JSON columns parse. drizzle's node-postgres session reads pg's global parsers.
 */
pg.types.setTypeParser(pg.types.builtins.INT8, (value: string) => Number(value));
pg.types.setTypeParser(pg.types.builtins.JSON, (value: string) => value);
// sum() of a bigint and avg() answer numeric, which pg hands over as text; SQLite answers a number.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value: string) => Number(value));

/** SQLSTATE 57P01: the server ended the connection (shutdown, or the database dropped). */
const ADMIN_SHUTDOWN = "57P01";

/** Connects, brings the schema up to date, and returns the database; `close` ends the pool. */
export async function openPostgres(url: string): Promise<PgDb> {
  // allowExitOnIdle: a command ends when its work does, not when idle connections time out (10 s).
  const pool = new pg.Pool({ connectionString: url, max: 8, allowExitOnIdle: true });
  // An idle connection the server ends (a restart, a dropped database) must not crash the process:
  // the pool replaces it on the next query. Anything else is reported.
  pool.on("error", (err: Error & { code?: string }) => {
    if (err.code !== ADMIN_SHUTDOWN) console.warn(`PostgreSQL: an idle connection failed: ${err.message}`);
  });
  const db = drizzle(pool, { schema: pgTables }) as PgDb;
  try {
    await migrate(db, { migrationsFolder: migrationsDir("migrations-pg") });
    markPostgres(db);
  } catch (err) {
    await pool.end();
    throw err;
  }
  return db;
}

/** A PostgreSQL database as the services take one: typed as `Db`, its queries written against db/schema.ts. */
export async function openPostgresAsDb(url: string): Promise<Db> {
  return (await openPostgres(url)) as unknown as Db;
}

/** Each pooled connection's own drizzle handle, made once: a locked transaction runs on one connection. */
const connectionHandles = new WeakMap<pg.PoolClient, PgDb>();

/** Per pool and lock key, the end of this process's queue for that lock. */
const localQueues = new WeakMap<pg.Pool, Map<string, Promise<void>>>();

/**
 * Waits for this process's turn at each of `keys` (in order) and returns what ends it: only one of
 * the process's transactions waits on PostgreSQL for a given lock, holding a pooled connection, so
 * the pool's other connections stay free for reads while many requests queue for one study.
 */
async function localTurn(pool: pg.Pool, keys: string[]): Promise<() => void> {
  let queues = localQueues.get(pool);
  if (!queues) localQueues.set(pool, (queues = new Map()));
  const ends: (() => void)[] = [];
  for (const key of keys) {
    const previous = queues.get(key) ?? Promise.resolve();
    let end!: () => void;
    const tail = previous.then(() => new Promise<void>((ok) => (end = ok)));
    queues.set(key, tail);
    await previous;
    ends.push(() => {
      end();
      if (queues.get(key) === tail) queues.delete(key);
    });
  }
  return () => {
    for (const end of ends) end();
  };
}

/**
 * Runs `work` on one connection of the pool that holds the session advisory locks `keys` (taken in
 * one order, so two holders of several never deadlock), released when it is done. A connection
 * that fails is ended rather than returned to the pool, and its locks end with it.
 */
export async function withSessionLocks<T>(db: PgDb, keys: string[], work: (handle: PgDb) => Promise<T>): Promise<T> {
  const ordered = [...keys].sort();
  const endTurn = await localTurn(db.$client, ordered);
  try {
    return await onLockedConnection(db, ordered, work);
  } finally {
    endTurn();
  }
}

async function onLockedConnection<T>(db: PgDb, keys: string[], work: (handle: PgDb) => Promise<T>): Promise<T> {
  const client = await db.$client.connect();
  let released = false;
  try {
    for (const key of keys) await client.query("select pg_advisory_lock(hashtextextended($1, 0))", [key]);
    let handle = connectionHandles.get(client);
    if (!handle) connectionHandles.set(client, (handle = drizzle(client, { schema: pgTables }) as unknown as PgDb));
    markPostgres(handle);
    return await work(handle);
  } finally {
    try {
      await client.query("select pg_advisory_unlock_all()");
    } catch (err) {
      client.release(err instanceof Error ? err : true);
      released = true;
    }
    if (!released) client.release();
  }
}

/**
 * A PostgreSQL database (DATABASE_URL, or a `postgres://` URL given to a command): a node-postgres
 * pool, drizzle over db/schema-pg.ts (the same tables as db/schema.ts), and the migrations of
 * db/migrations-pg applied on open, as openDatabase does for SQLite.
 */
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { pgTables } from "../../db/schema-pg.ts";
import { migrationsDir } from "./db.server.ts";

export type PgDb = NodePgDatabase<typeof pgTables> & { $client: pg.Pool };

/** True for a URL this module opens (postgres:// or postgresql://). */
export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

/** Connects, brings the schema up to date, and returns the database; `close` ends the pool. */
export async function openPostgres(url: string): Promise<PgDb> {
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  const db = drizzle(pool, { schema: pgTables }) as PgDb;
  try {
    await migrate(db, { migrationsFolder: migrationsDir("migrations-pg") });
  } catch (err) {
    await pool.end();
    throw err;
  }
  return db;
}

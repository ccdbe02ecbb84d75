/**
 * What both engines' modules share without importing each other: the handle type every query is
 * written against (SQLite's drizzle type; a PostgreSQL handle is typed the same, see
 * db-pg.server.ts), which engine a handle belongs to, and where the committed migrations live.
 */
import type Database from "better-sqlite3";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type * as schema from "../../db/schema.ts";

export type Db = BetterSQLite3Database<typeof schema> & { $client: Database.Database };

export type Dialect = "sqlite" | "postgres";

/*
 * Kept on globalThis: the web server (scripts/serve.ts, loaded from source) opens the handle and
 * the routes' copy of this module in the Remix build must still know it for PostgreSQL's.
 */
const shared = globalThis as unknown as Record<symbol, WeakSet<object> | undefined>;
const postgresHandles: WeakSet<object> = (shared[Symbol.for("socrates.postgres-handles")] ??= new WeakSet());

/** Marks a drizzle handle (a database or a transaction's) as PostgreSQL's. */
export function markPostgres(db: object): void {
  postgresHandles.add(db);
}

/** The engine behind a handle typed as `Db`. */
export function dialectOf(db: object): Dialect {
  return postgresHandles.has(db) ? "postgres" : "sqlite";
}

/** True for a URL the PostgreSQL module opens (postgres:// or postgresql://). */
export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//.test(url);

/**
 * The project's db/<folder> of migrations (db/migrations, db/migrations-pg), found upwards from this
 * module (the sources, the CLI bundle in dist/cli and the app build all sit inside the project), so
 * a command run from any folder finds it.
 */
export function migrationsDir(folder: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, "db", folder);
    if (existsSync(join(candidate, "meta", "_journal.json"))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return resolve(process.cwd(), "db", folder);
    dir = parent;
  }
}

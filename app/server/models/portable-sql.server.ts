/**
 * The few SQL functions the two engines spell differently. Everything else the models write is
 * standard SQL that SQLite and PostgreSQL both run as it is.
 */
import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { dialectOf } from "../db-dialect.server.ts";

/** The current time as the ISO text every timestamp column holds (2026-11-29T14:03:07.123Z). */
export const nowIso = (db: object): SQL =>
  dialectOf(db) === "postgres"
    ? sql`to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

/** A top-level field of a JSON text column, as text (compare it with a string). */
export const jsonFieldText = (db: object, column: SQLWrapper, key: string): SQL =>
  dialectOf(db) === "postgres"
    ? sql`(${column} ->> ${sql.raw(`'${key.replace(/'/g, "''")}'`)})`
    : sql`cast(json_extract(${column}, ${`$.${key}`}) as text)`;

/** Whether `needle` occurs in `haystack`, as plain text (never a LIKE pattern). */
export const containsText = (db: object, haystack: SQLWrapper, needle: string): SQL =>
  dialectOf(db) === "postgres" ? sql`strpos(${haystack}, ${needle}) > 0` : sql`instr(${haystack}, ${needle}) > 0`;

/**
 * The order rows were stored in, as a tie-break: SQLite's rowid. PostgreSQL keeps no such order,
 * so there the table's key breaks the tie (rows stored in the same millisecond only).
 */
export const storedOrder = (db: object, key: SQLWrapper): SQL =>
  dialectOf(db) === "postgres" ? sql`${key}` : sql`rowid`;

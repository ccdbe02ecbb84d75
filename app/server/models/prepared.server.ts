/**
 * Prepared drizzle queries, built once per connection: the hot paths of a results import run
 * them thousands of times, and building the query each time costs more than running it.
 */
import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { rawRows, type Db } from "../db.server.ts";
import { dialectOf } from "../db-dialect.server.ts";

export function preparedOnce<T>(build: (db: Db) => T): (db: Db) => T {
  const cache = new WeakMap<Db, T>();
  return (db) => {
    let prepared = cache.get(db);
    if (!prepared) {
      prepared = build(db);
      cache.set(db, prepared);
    }
    return prepared;
  };
}

/*
 * The high-volume inserts (runs, evaluations, turns, snippets, derived scores: a real benchmark
 * stores over a million rows) give their values as bare placeholders (`sql\`${…}\``) holding
 * driver values (booleans as 0/1, JSON columns as JSON text or NULL): a column-typed placeholder
 * runs drizzle's per-value encoder lookup, which made the whole import about 5% slower (bench:db).
 */
export const rawPlaceholder = (name: string) => sql`${sql.placeholder(name)}`;
/** A json-mode column's driver value: JSON text, or NULL for an absent value. */
export const jsonOrNull = (value: unknown): string | null =>
  value === undefined || value === null ? null : JSON.stringify(value);

/** Parameters per multi-row statement: well under PostgreSQL's 65,535. */
const PARAMETERS_PER_STATEMENT = 30_000;

/**
 * Inserts many rows of driver values (as the prepared insert `one` takes them) into `table`. SQLite
 * runs the prepared insert per row (microseconds each, in process); on PostgreSQL, where every
 * statement is a round trip, rows go in multi-row statements (a bundle import went from 40,000
 * statements and 23 s to a few hundred).
 */
export async function insertRows<R extends Record<string, unknown>>(
  db: Db,
  table: SQLiteTable,
  one: (db: Db) => { execute(values: R): unknown },
  rows: readonly R[],
): Promise<void> {
  if (rows.length === 0) return;
  if (dialectOf(db) !== "postgres") {
    const insert = one(db);
    for (const row of rows) await insert.execute(row);
    return;
  }
  const columns: Record<string, { name: string }> = getTableColumns(table);
  const keys = Object.keys(rows[0]);
  const names = sql.join(
    keys.map((k) => sql.identifier(columns[k].name)),
    sql`, `,
  );
  const perStatement = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / keys.length));
  for (let i = 0; i < rows.length; i += perStatement) {
    const tuples: SQL[] = rows.slice(i, i + perStatement).map(
      (row) =>
        sql`(${sql.join(
          keys.map((k) => sql`${row[k]}`),
          sql`, `,
        )})`,
    );
    await rawRows(db, sql`insert into ${table} (${names}) values ${sql.join(tuples, sql`, `)}`);
  }
}

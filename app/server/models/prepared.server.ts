/**
 * Prepared drizzle queries, built once per connection: the hot paths of a results import run
 * them thousands of times, and building the query each time costs more than running it.
 */
import { sql } from "drizzle-orm";
import type { Db } from "../db.server.ts";

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

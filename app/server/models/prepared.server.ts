/**
 * Prepared drizzle queries, built once per connection: the hot paths of a results import run
 * them thousands of times, and building the query each time costs more than running it.
 */
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

/** A fresh database file per test, closed and removed after it; optionally seeded. */
import { afterEach } from "vitest";
import type { Db } from "../../../app/server/db.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";

export function databasePerTest(seed?: (db: Db) => unknown): () => Promise<Db> {
  const cleanups: (() => void | Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c();
  });
  return async () => {
    const t = await tempDb();
    cleanups.push(t.cleanup);
    await seed?.(t.db);
    return t.db;
  };
}

import Database from "better-sqlite3";

/** Rows of a query on a running server's database, read on a connection of its own (read-only, closed after). */
export function readRows<T>(dbPath: string, sql: string, ...args: unknown[]): T[] {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.prepare(sql).all(...args) as T[];
  } finally {
    db.close();
  }
}

/**
 * Whole tables, on either engine, for `socrates db copy`: every table of the schema in an order
 * where a row's foreign keys are already there, read in primary-key order a batch at a time, and
 * written in batches within the bind limits of both engines.
 */
import { asc, count, getTableColumns, is, sql } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as lite from "../../../db/schema.ts";
import { pgTables } from "../../../db/schema-pg.ts";
import type { Db } from "../db.server.ts";
import type { PgDb } from "../db-pg.server.ts";

/** A database of either engine. */
export type AnyDb = { engine: "sqlite"; db: Db } | { engine: "postgres"; db: PgDb };

export type Row = Record<string, unknown>;

/** Bound values per statement: below SQLite's 32,766 and PostgreSQL's 65,535. */
const MAX_BOUND = 30_000;

const liteTables = new Map(Object.entries(lite).filter(([, v]) => is(v, SQLiteTable)) as [string, SQLiteTable][]);

/** The tables' export names, each after every table its foreign keys point to. */
export function tablesInCopyOrder(): string[] {
  const nameOf = new Map([...liteTables].map(([name, t]) => [t, name]));
  const done = new Set<string>();
  const order: string[] = [];
  const visit = (name: string, path: string[]) => {
    if (done.has(name)) return;
    if (path.includes(name)) throw new Error(`foreign keys form a cycle: ${[...path, name].join(" → ")}`);
    for (const fk of getTableConfig(liteTables.get(name) as SQLiteTable).foreignKeys) {
      const target = nameOf.get(fk.reference().foreignTable) as string;
      if (target !== name) visit(target, [...path, name]);
    }
    done.add(name);
    order.push(name);
  };
  for (const name of [...liteTables.keys()].sort()) visit(name, []);
  return order;
}

/** The table object of `name` on the engine of `target`. */
function tableOf(target: AnyDb, name: string): SQLiteTable {
  return (target.engine === "sqlite" ? liteTables.get(name) : pgTables[name]) as unknown as SQLiteTable;
}

/** The primary-key columns of a table (its one key column, or the composite key's), for a stable order. */
function keyOrder(target: AnyDb, name: string) {
  const table = tableOf(target, name);
  const columns = Object.values(getTableColumns(table));
  const single = columns.filter((c) => c.primary);
  const composite = getTableConfig(liteTables.get(name) as SQLiteTable).primaryKeys[0]?.columns.map((c) => c.name);
  const keys = single.length > 0 ? single : columns.filter((c) => composite?.includes(c.name));
  return (keys.length > 0 ? keys : columns).map((c) => asc(c));
}

/** The number of rows in a table. */
export async function tableRowCount(target: AnyDb, name: string): Promise<number> {
  const db = target.db as unknown as Db;
  const [row] = await db.select({ n: count() }).from(tableOf(target, name));
  return Number(row.n);
}

/** Up to `limit` rows of a table from `offset`, in primary-key order, with their JS column keys. */
export async function tableRows(target: AnyDb, name: string, offset: number, limit: number): Promise<Row[]> {
  const db = target.db as unknown as Db;
  return (await db
    .select()
    .from(tableOf(target, name))
    .orderBy(...keyOrder(target, name))
    .limit(limit)
    .offset(offset)) as Row[];
}

/** Rows per insert statement for a table: as many as the bind limit allows. */
export function rowsPerInsert(name: string): number {
  return Math.max(1, Math.floor(MAX_BOUND / Object.keys(getTableColumns(liteTables.get(name) as SQLiteTable)).length));
}

/** Inserts rows (as tableRows returns them) into a table, as they are: ids included. */
export async function insertTableRows(target: AnyDb, name: string, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const db = target.db as unknown as Db;
  const step = rowsPerInsert(name);
  for (let i = 0; i < rows.length; i += step) await db.insert(tableOf(target, name)).values(rows.slice(i, i + step));
}

/** Deletes every row of a table (the copy's caches, which the target's triggers wrote). */
export async function clearTable(target: AnyDb, name: string): Promise<void> {
  const db = target.db as unknown as Db;
  await db.delete(tableOf(target, name));
}

/**
 * PostgreSQL only: moves each identity column's sequence past the largest id copied in, so the
 * next row the app inserts gets a new id (SQLite's AUTOINCREMENT keeps track by itself).
 */
export async function resetIdentities(target: AnyDb, name: string): Promise<void> {
  if (target.engine !== "postgres") return;
  const table = pgTables[name];
  for (const column of Object.values(getTableColumns(table))) {
    if (!(column as { generatedIdentity?: unknown }).generatedIdentity) continue;
    const tableName = getTableConfig(liteTables.get(name) as SQLiteTable).name;
    await target.db.execute(
      sql`select setval(pg_get_serial_sequence(${tableName}, ${column.name}), coalesce((select max(${column}) from ${table}), 0) + 1, false)`,
    );
  }
}

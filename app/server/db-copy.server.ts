/**
 * `socrates db copy`: a whole database from one engine to the other (SQLite file ↔ PostgreSQL),
 * all or nothing. The target must be empty; every table is copied in an order where foreign keys
 * hold, ids included, in one transaction on the target; the caches its triggers fill while rows
 * go in (data_versions, allocation_cursors) are then replaced by the source's, and PostgreSQL's id
 * sequences moved past the copied ids. The source is read on one snapshot (a read transaction), so
 * a copy taken while the app runs is consistent. Nothing is written to the source.
 */
import { endWrite, onOneSnapshot, openDatabase, tryBeginWrite } from "./db.server.ts";
import { isPostgresUrl } from "./db-dialect.server.ts";
import {
  clearTable,
  insertTableRows,
  resetIdentities,
  tableRowCount,
  tableRows,
  tablesInCopyOrder,
  type AnyDb,
} from "./models/table-rows.server.ts";

/** Tables the target's triggers write while the others are copied: copied last, replacing what was written. */
const TRIGGER_CACHES = ["dataVersions", "allocationCursors"];
/** Rows read from the source at once. */
const READ_BATCH = 2_000;

export class CopyRefused extends Error {}

/** A database named as the command takes it: `sqlite:PATH`, a bare path, or a postgres:// URL. */
export async function openAny(location: string): Promise<AnyDb> {
  if (isPostgresUrl(location)) {
    const { openPostgres } = await import("./db-pg.server.ts"); // loaded only when a copy involves PostgreSQL
    return { engine: "postgres", db: await openPostgres(location) };
  }
  return { engine: "sqlite", db: await openDatabase(location.replace(/^sqlite:/, "")) };
}

export async function closeAny(target: AnyDb): Promise<void> {
  if (target.engine === "postgres") await target.db.$client.end();
  else target.db.$client.close();
}

export interface CopySummary {
  /** Rows copied per table (export name), in copy order. */
  rows: [string, number][];
}

async function refuseUnlessEmpty(target: AnyDb, tables: string[]): Promise<void> {
  for (const name of tables) {
    const n = await tableRowCount(target, name);
    if (n > 0) throw new CopyRefused(`the target is not empty (${name} has ${n} rows): copy into a new database`);
  }
}

async function copyTable(source: AnyDb, target: AnyDb, name: string, onTable?: (name: string, rows: number) => void) {
  let copied = 0;
  for (;;) {
    const rows = await tableRows(source, name, copied, READ_BATCH);
    await insertTableRows(target, name, rows);
    copied += rows.length;
    if (rows.length < READ_BATCH) break;
  }
  onTable?.(name, copied);
  return copied;
}

/** Copies every row of `source` into the empty `target`; on any error the target is left as it was. */
export async function copyDatabase(
  source: AnyDb,
  target: AnyDb,
  onTable?: (name: string, rows: number) => void,
): Promise<CopySummary> {
  const order = tablesInCopyOrder();
  await refuseUnlessEmpty(target, order);
  const body = async (into: AnyDb): Promise<CopySummary> => {
    const rows: [string, number][] = [];
    for (const name of order.filter((n) => !TRIGGER_CACHES.includes(n)))
      rows.push([name, await copyTable(source, into, name, onTable)]);
    for (const name of TRIGGER_CACHES) {
      await clearTable(into, name);
      rows.push([name, await copyTable(source, into, name, onTable)]);
    }
    for (const name of order) await resetIdentities(into, name);
    return { rows };
  };
  if (target.engine === "postgres") return target.db.transaction((tx) => body({ engine: "postgres", db: tx as never }));
  if (!tryBeginWrite(target.db))
    throw new CopyRefused("the target database is busy (another process holds its write lock)");
  let done = false;
  try {
    const summary = await body(target);
    done = true;
    return summary;
  } finally {
    endWrite(target.db, done);
  }
}

/** Opens both databases by name, copies, and closes them; a refusal or a connection error is a CopyRefused. */
export async function copyDatabaseBetween(
  from: string,
  to: string,
  onTable?: (name: string, rows: number) => void,
): Promise<CopySummary> {
  const opened: AnyDb[] = [];
  try {
    const source = await openNamed(from, "source");
    opened.push(source);
    const target = await openNamed(to, "target");
    opened.push(target);
    return await onSnapshot(source, (snapshot) => copyDatabase(snapshot, target, onTable));
  } finally {
    for (const db of opened) await closeAny(db);
  }
}

async function openNamed(location: string, role: string): Promise<AnyDb> {
  try {
    return await openAny(location);
  } catch (err) {
    throw new CopyRefused(`cannot open the ${role} ${location}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** Runs `work` on one snapshot of `source` (SQLite: a read transaction; PostgreSQL: repeatable read, read only). */
function onSnapshot<T>(source: AnyDb, work: (snapshot: AnyDb) => Promise<T>): Promise<T> {
  if (source.engine === "sqlite") return onOneSnapshot(source.db, () => work(source));
  return source.db.transaction((tx) => work({ engine: "postgres", db: tx as never }), {
    isolationLevel: "repeatable read",
    accessMode: "read only",
  });
}

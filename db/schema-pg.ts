/**
 * The data model on PostgreSQL: every table of schema.ts, made from it column by column, so the
 * two cannot drift (schema.ts stays the one place a table is declared). Same table, column,
 * index and constraint names; SQLite's 64-bit integers become bigint (as JS numbers), its 0/1
 * booleans boolean, its reals double precision, and its JSON text `json` (kept as written, so an
 * export reads the same on both engines); an ISO "now" default becomes PostgreSQL's. A feature
 * this mapping does not know throws when the module loads (test/unit/db/schema-pg.test.ts).
 * The migrations drizzle-kit makes from this file are in migrations-pg/.
 */
import { getTableColumns, is, SQL, sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  doublePrecision,
  foreignKey,
  index,
  json,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  type PgColumnBuilderBase,
  type PgTable,
} from "drizzle-orm/pg-core";
import { getTableConfig, SQLiteTable, type SQLiteColumn } from "drizzle-orm/sqlite-core";
import * as lite from "./schema.ts";

/** SQLite's ISO-8601 "now" (schema.ts's createdAt) and PostgreSQL's same text. */
const LITE_NOW = "(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))";
const PG_NOW = sql`to_char(now() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The SQL text of a default or a partial index's condition (no parameters in either). */
function sqlText(value: SQL): string {
  return value.queryChunks
    .map((c) => {
      if (typeof c === "object" && c !== null && "value" in c && Array.isArray(c.value)) return c.value.join("");
      throw new Error(`schema-pg: a default or condition with parameters is not mapped: ${String(c)}`);
    })
    .join("");
}

function pgDefault(where: string, value: unknown): unknown {
  if (!is(value, SQL)) return value;
  const text = sqlText(value);
  if (text === LITE_NOW) return PG_NOW;
  if (/^'[^']*'$/.test(text)) return sql.raw(text);
  throw new Error(`schema-pg: ${where}: the SQL default ${text} has no PostgreSQL mapping`);
}

/** What the mirror calls on a column builder, whatever its type (drizzle types each one by its value type). */
interface Builder extends PgColumnBuilderBase {
  primaryKey(): Builder;
  notNull(): Builder;
  default(value: unknown): Builder;
  $defaultFn(fn: () => unknown): Builder;
  $onUpdateFn(fn: () => unknown): Builder;
  generatedByDefaultAsIdentity(): Builder;
}

function pgColumn(tableName: string, column: SQLiteColumn): PgColumnBuilderBase {
  const where = `${tableName}.${column.name}`;
  let builder: Builder;
  switch (column.columnType) {
    case "SQLiteText":
      builder = text(column.name) as unknown as Builder;
      break;
    case "SQLiteTextJson":
      builder = json(column.name) as unknown as Builder;
      break;
    case "SQLiteInteger":
      builder = bigint(column.name, { mode: "number" }) as unknown as Builder;
      break;
    case "SQLiteBoolean":
      builder = boolean(column.name) as unknown as Builder;
      break;
    case "SQLiteReal":
      builder = doublePrecision(column.name) as unknown as Builder;
      break;
    default:
      throw new Error(`schema-pg: ${where}: column type ${column.columnType} has no PostgreSQL mapping`);
  }
  const autoIncrement = (column as SQLiteColumn & { autoIncrement?: boolean }).autoIncrement;
  if (column.primary) builder = builder.primaryKey();
  if (autoIncrement) builder = builder.generatedByDefaultAsIdentity();
  if (column.notNull && !column.primary) builder = builder.notNull();
  if (column.hasDefault && column.default !== undefined) builder = builder.default(pgDefault(where, column.default));
  if (column.defaultFn) builder = builder.$defaultFn(column.defaultFn);
  if (column.onUpdateFn) builder = builder.$onUpdateFn(column.onUpdateFn);
  return builder;
}

const mirrored = new Map<SQLiteTable, PgTable>();

/** The PostgreSQL table of a schema.ts table (built on first use; foreign keys find theirs lazily). */
function mirror(table: SQLiteTable): PgTable {
  const found = mirrored.get(table);
  if (found) return found;
  const config = getTableConfig(table);
  const columns = getTableColumns(table) as Record<string, SQLiteColumn>;
  const keyOf = new Map(Object.entries(columns).map(([key, c]) => [c.name, key]));
  const pgColumns = Object.fromEntries(Object.entries(columns).map(([key, c]) => [key, pgColumn(config.name, c)]));
  const made = pgTable(config.name, pgColumns, (t) => {
    const col = (c: { name: string }) => (t as Record<string, never>)[keyOf.get(c.name) as string];
    return [
      ...config.primaryKeys.map((pk) => primaryKey({ name: pk.getName(), columns: pk.columns.map(col) as [never] })),
      ...config.indexes.map((ix) => {
        const on = ix.config.columns.map((c) => {
          if (is(c, SQL)) throw new Error(`schema-pg: ${config.name}: index ${ix.config.name} on an expression`);
          return col(c);
        }) as [never];
        const built = (ix.config.unique ? uniqueIndex : index)(ix.config.name).on(...on);
        return ix.config.where ? built.where(sql.raw(sqlText(ix.config.where))) : built;
      }),
      ...config.foreignKeys.map((fk) => {
        const ref = fk.reference();
        const target = mirror(ref.foreignTable) as unknown as Record<string, never>;
        const targetKeys = getTableColumns(ref.foreignTable) as Record<string, SQLiteColumn>;
        const targetKeyOf = new Map(Object.entries(targetKeys).map(([key, c]) => [c.name, key]));
        const built = foreignKey({
          name: fk.getName(),
          columns: ref.columns.map(col) as [never],
          foreignColumns: ref.foreignColumns.map((c) => target[targetKeyOf.get(c.name) as string]) as [never],
        });
        const withDelete = fk.onDelete ? built.onDelete(fk.onDelete) : built;
        return fk.onUpdate ? withDelete.onUpdate(fk.onUpdate) : withDelete;
      }),
    ];
  });
  if (config.checks.length > 0 || config.uniqueConstraints.length > 0)
    throw new Error(`schema-pg: ${config.name}: checks and unique constraints have no mapping yet`);
  mirrored.set(table, made as unknown as PgTable);
  return made as unknown as PgTable;
}

/** Every schema.ts table on PostgreSQL, under the same export name. */
export const pgTables: Record<string, PgTable> = Object.fromEntries(
  Object.entries(lite)
    .filter(([, value]) => is(value, SQLiteTable))
    .map(([name, table]) => [name, mirror(table as SQLiteTable)]),
);

// Named exports, one per table: drizzle-kit reads a schema's tables from its module's exports.
export const scenarios = pgTables.scenarios;
export const conditions = pgTables.conditions;
export const runs = pgTables.runs;
export const turns = pgTables.turns;
export const matchedPairs = pgTables.matchedPairs;
export const evaluations = pgTables.evaluations;
export const evaluationScores = pgTables.evaluationScores;
export const snippets = pgTables.snippets;
export const abPairs = pgTables.abPairs;
export const studies = pgTables.studies;
export const studyItems = pgTables.studyItems;
export const studyDraws = pgTables.studyDraws;
export const allocationCursors = pgTables.allocationCursors;
export const annotators = pgTables.annotators;
export const assignments = pgTables.assignments;
export const itemFlags = pgTables.itemFlags;
export const labels = pgTables.labels;
export const labelRevisions = pgTables.labelRevisions;
export const labelDrafts = pgTables.labelDrafts;
export const qualificationAttempts = pgTables.qualificationAttempts;
export const sessions = pgTables.sessions;
export const crowdAssignments = pgTables.crowdAssignments;
export const mturkHits = pgTables.mturkHits;
export const mturkQualificationTypes = pgTables.mturkQualificationTypes;
export const llmCalls = pgTables.llmCalls;
export const metricValues = pgTables.metricValues;
export const interventionJudgments = pgTables.interventionJudgments;
export const seeds = pgTables.seeds;
export const curationCandidates = pgTables.curationCandidates;
export const benchmarkPlans = pgTables.benchmarkPlans;
export const settings = pgTables.settings;
export const dataVersions = pgTables.dataVersions;
export const workLeases = pgTables.workLeases;

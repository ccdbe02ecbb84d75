/**
 * The PostgreSQL schema (db/schema-pg.ts) against SQLite's (db/schema.ts): every table, column,
 * key, index and foreign key under the same names, with the types the mirror maps to; and both
 * sets of committed migrations up to date with their schema (drizzle-kit finds nothing to
 * generate), so a change to schema.ts without its migrations on both engines fails here.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { getTableColumns, is } from "drizzle-orm";
import { getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import { getTableConfig as liteConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { afterAll, describe, expect, it } from "vitest";
import * as lite from "../../../db/schema.ts";
import * as pg from "../../../db/schema-pg.ts";

const ROOT = resolve(import.meta.dirname, "../../..");
const liteTables = Object.entries(lite).filter(([, v]) => is(v, SQLiteTable)) as [string, SQLiteTable][];

const PG_TYPE: Record<string, string> = {
  SQLiteText: "text",
  SQLiteTextJson: "json",
  SQLiteInteger: "bigint",
  SQLiteBoolean: "boolean",
  SQLiteReal: "double precision",
};

describe("db/schema-pg.ts mirrors db/schema.ts", () => {
  it("exports every table by the same name, and no other", () => {
    const pgNames = Object.keys(pg).filter((k) => k !== "pgTables");
    expect(pgNames.sort()).toEqual(liteTables.map(([name]) => name).sort());
    expect(liteTables.length).toBeGreaterThan(30);
  });

  it.each(liteTables)("%s: the same columns, keys, indexes and foreign keys", (name, table) => {
    const l = liteConfig(table);
    const p = pgConfig(pg.pgTables[name]);
    expect(p.name).toBe(l.name);
    const lCols = getTableColumns(table);
    const pCols = getTableColumns(pg.pgTables[name]);
    expect(Object.keys(pCols)).toEqual(Object.keys(lCols));
    for (const [key, c] of Object.entries(lCols)) {
      const q = pCols[key];
      expect({ key, name: q.name, type: q.getSQLType(), notNull: q.notNull, primary: q.primary }).toEqual({
        key,
        name: c.name,
        type: PG_TYPE[c.columnType],
        notNull: c.notNull,
        primary: c.primary,
      });
      // SQLite gives every integer primary key a value (a rowid alias); PostgreSQL only an identity column.
      const identity = Boolean((c as { autoIncrement?: boolean }).autoIncrement);
      expect(Boolean((q as { generatedIdentity?: unknown }).generatedIdentity), `${name}.${c.name} identity`).toBe(
        identity,
      );
      if (!c.primary) expect(q.hasDefault, `${name}.${c.name} default`).toBe(c.hasDefault);
    }
    const idx = (cfg: typeof l | typeof p) =>
      cfg.indexes.map((i) => ({
        name: i.config.name,
        unique: Boolean(i.config.unique),
        columns: i.config.columns.map((c) => (c as { name: string }).name),
        partial: Boolean(i.config.where),
      }));
    expect(idx(p)).toEqual(idx(l));
    expect(p.primaryKeys.map((k) => [k.getName(), k.columns.map((c) => c.name)])).toEqual(
      l.primaryKeys.map((k) => [k.getName(), k.columns.map((c) => c.name)]),
    );
    const fks = (cfg: typeof l | typeof p) =>
      cfg.foreignKeys.map((f) => {
        const r = f.reference();
        return {
          name: f.getName(),
          columns: r.columns.map((c) => c.name),
          foreign: r.foreignColumns.map(
            (c) => `${(c.table as unknown as { [k: symbol]: string })[Symbol.for("drizzle:Name")]}.${c.name}`,
          ),
          onDelete: f.onDelete ?? "no action",
        };
      });
    expect(fks(p)).toEqual(fks(l));
  });
});

describe("committed migrations", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it.each([
    ["sqlite", "db/schema.ts", "db/migrations"],
    ["postgresql", "db/schema-pg.ts", "db/migrations-pg"],
  ])("%s: drizzle-kit has nothing to generate from %s", (dialect, schema, out) => {
    const dir = mkdtempSync(join(tmpdir(), "socrates-migrations-"));
    dirs.push(dir);
    cpSync(join(ROOT, out), join(dir, "migrations"), { recursive: true });
    const config = join(dir, "drizzle.config.mjs");
    writeFileSync(
      config,
      // drizzle-kit reads `out` relative to its working directory.
      `export default ${JSON.stringify({ dialect, schema: relative(dir, join(ROOT, schema)), out: "./migrations" })};\n`,
    );
    const before = readdirSync(join(dir, "migrations")).length;
    const kit = spawnSync(
      process.execPath,
      [join(ROOT, "node_modules/drizzle-kit/bin.cjs"), "generate", "--config", config],
      { cwd: dir, encoding: "utf8" },
    );
    expect(kit.status, kit.stderr).toBe(0);
    expect(kit.stdout + kit.stderr).toMatch(/No schema changes/);
    expect(readdirSync(join(dir, "migrations")).length).toBe(before);
  });
});

describe("the PostgreSQL migrations' triggers", () => {
  /** The triggers a folder's migrations leave, in order: each CREATE adds one, each DROP takes it away. */
  const triggers = (dir: string, created: RegExp, dropped: RegExp) => {
    const left = new Set<string>();
    for (const f of readdirSync(join(ROOT, dir))
      .filter((name) => name.endsWith(".sql"))
      .sort()) {
      const text = readFileSync(join(ROOT, dir, f), "utf8");
      const events = [
        ...[...text.matchAll(created)].map((m) => ({ at: m.index, name: m[1], add: true })),
        ...[...text.matchAll(dropped)].map((m) => ({ at: m.index, name: m[1], add: false })),
      ].sort((a, b) => a.at - b.at);
      for (const e of events) e.add ? left.add(e.name) : left.delete(e.name);
    }
    return [...left].sort();
  };

  it("leaves every SQLite trigger under the same name, and no other", () => {
    const sqlite = triggers("db/migrations", /CREATE TRIGGER `(\w+)`/g, /DROP TRIGGER IF EXISTS `(\w+)`/g);
    expect(sqlite.length).toBeGreaterThan(50);
    expect(sqlite).not.toContain("data_versions_evaluation_scores_insert");
    expect(triggers("db/migrations-pg", /CREATE TRIGGER (\w+) /g, /DROP TRIGGER IF EXISTS (\w+) /g)).toEqual(sqlite);
  });
});

/**
 * `socrates db copy` on a real PostgreSQL server: the demo database (studies, labels, the demo
 * benchmark) copied SQLite → PostgreSQL → a new SQLite file comes back with every table's rows
 * equal and byte-identical exports; PostgreSQL hands out new ids after the copied ones; a target
 * that is not empty is refused with nothing written.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeAny, openAny } from "../../../app/server/db-copy.server.ts";
import { openDatabase } from "../../../app/server/db.server.ts";
import {
  tableRowCount,
  tableRows,
  tablesInCopyOrder,
  type AnyDb,
} from "../../../app/server/models/table-rows.server.ts";
import { seedDemoBenchmark } from "../../../demo/benchmark/seed.ts";
import { seedDemo } from "../../../demo/seed.ts";
import { seedDemoStudies } from "../../../demo/studies.ts";
import { pgDatabase } from "../../../harness/postgres.ts";
import { tempDir } from "../../../harness/temp-db.ts";
import { runCli } from "../../helpers/cli.ts";

const skip = !process.env.SOCRATES_TEST_PG && process.env.CI !== "true";

async function everyRow(db: AnyDb): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const name of tablesInCopyOrder()) out[name] = await tableRows(db, name, 0, 1_000_000);
  return out;
}

describe.skipIf(skip)("socrates db copy", { timeout: 180_000 }, () => {
  const dir = tempDir();
  const demo = join(dir.dir, "demo.db");
  const back = join(dir.dir, "back.db");
  let pg: Awaited<ReturnType<typeof pgDatabase>>;

  beforeAll(async () => {
    const db = await openDatabase(demo);
    await seedDemo(db);
    await seedDemoStudies(db);
    await seedDemoBenchmark(db);
    db.$client.close();
    pg = await pgDatabase();
  }, 180_000);

  afterAll(async () => {
    await pg?.drop();
    dir.cleanup();
  });

  it("round-trips the demo database through PostgreSQL: every row equal, exports identical", async () => {
    const there = runCli(["db", "copy", "--from", `sqlite:${demo}`, "--to", pg.url]);
    expect(there.status, there.stderr).toBe(0);
    expect(there.stdout).toMatch(/^copied \d+ rows in \d+ tables from sqlite:/);
    const again = runCli(["db", "copy", "--from", pg.url, "--to", `sqlite:${back}`]);
    expect(again.status, again.stderr).toBe(0);

    const source = await openAny(demo);
    const onPg = await openAny(pg.url);
    const returned = await openAny(back);
    try {
      const rows = await everyRow(source);
      expect(rows.labels.length).toBeGreaterThan(0);
      expect(rows.runs.length).toBeGreaterThan(0);
      expect(rows.llmCalls.length + rows.metricValues.length).toBeGreaterThan(0);
      expect(await everyRow(onPg)).toEqual(rows);
      expect(await everyRow(returned)).toEqual(rows);
    } finally {
      for (const db of [source, onPg, returned]) await closeAny(db);
    }
    const exportOf = (path: string, file: string) => {
      const r = runCli(["export", join(dir.dir, file)], { SOCRATES_DB: path });
      expect(r.status, r.stderr).toBe(0);
      return readFileSync(join(dir.dir, file), "utf8");
    };
    expect(exportOf(back, "back.json")).toBe(exportOf(demo, "demo.json"));
  });

  it("lets PostgreSQL number new rows after the copied ones", async () => {
    const onPg = await openAny(pg.url);
    try {
      if (onPg.engine !== "postgres") throw new Error("expected PostgreSQL");
      const { annotators } = await import("../../../db/schema-pg.ts");
      const before = await tableRowCount(onPg, "annotators");
      const [made] = await onPg.db
        .insert(annotators)
        .values({ username: "after-copy", displayName: "After copy", role: "expert" } as never)
        .returning();
      expect((made as { id: number }).id).toBe(before + 1);
    } finally {
      await closeAny(onPg);
    }
  });

  it("refuses a target that is not empty, writing nothing", async () => {
    const counts = async () => {
      const db = await openAny(back);
      try {
        return await Promise.all(tablesInCopyOrder().map((t) => tableRowCount(db, t)));
      } finally {
        await closeAny(db);
      }
    };
    const before = await counts();
    const refused = runCli(["db", "copy", "--from", `sqlite:${demo}`, "--to", `sqlite:${back}`]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/db copy: the target is not empty \(\w+ has \d+ rows\).*nothing was written/);
    expect(await counts()).toEqual(before);
  });
});

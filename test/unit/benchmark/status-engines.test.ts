/**
 * `socrates benchmark status` against what the database holds, on the suite's engine (SQLite, and PostgreSQL in the
 * PostgreSQL project): before any run, after half the grid (one shard) was run, and after an evaluation was deleted
 * behind its back. Its stored and pending figures are the database's row counts.
 */
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { evaluations } from "../../../db/schema.ts";
import { standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { openDatabase } from "../../../app/server/db.server.ts";
import { closeDatabase, transact } from "../../../app/server/db-transaction.server.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { pgDatabase } from "../../../harness/postgres.ts";
import { tempDir, testEngine } from "../../../harness/temp-db.ts";
import { runCliInProcess } from "../../helpers/cli-in-process.ts";
import { benchmarkFiles, rowsAt, SMALL_PLAN } from "./runner-helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Two scenarios, two conditions, two mediators, two runs each: 8 units, 24 runs, one evaluation each. */
const PLAN = {
  ...SMALL_PLAN,
  name: "status grid",
  conditions: { keys: ["general", "emotion:CR"] },
};
const UNITS = 8;
const RUNS = 24;

interface Figures {
  units: number;
  runs: number;
  toSimulate: number;
  stored: number;
  evaluations: number;
  pending: number;
}

/** The per-part lines of status's output, added up. */
function figures(stdout: string): Figures {
  const sum: Figures = { units: 0, runs: 0, toSimulate: 0, stored: 0, evaluations: 0, pending: 0 };
  const line =
    /^ {2}\S+: (\d+) units, (\d+) runs \((\d+) to simulate, (\d+) stored\), (\d+) evaluations \((\d+) pending\)$/gm;
  for (const m of stdout.matchAll(line)) {
    const [units, runs, toSimulate, stored, evaluations, pending] = m.slice(1).map(Number);
    sum.units += units;
    sum.runs += runs;
    sum.toSimulate += toSimulate;
    sum.stored += stored;
    sum.evaluations += evaluations;
    sum.pending += pending;
  }
  return sum;
}

/** Deletes one evaluation (its scores go with it) through the app's own handle on either engine. */
async function deleteEvaluation(target: string, id: string): Promise<void> {
  const db = await openDatabase(target);
  try {
    await transact(db, async (db) => void (await db.delete(evaluations).where(eq(evaluations.id, id))));
  } finally {
    await closeDatabase(db);
  }
}

async function setUp() {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const mock = await startMockLlm({ respond: standInResponder(), latencyMs: 0 });
  cleanups.push(() => mock.close());
  let target: string | undefined;
  if (testEngine() === "postgres") {
    const database = await pgDatabase({ migrated: true });
    cleanups.push(database.drop);
    target = database.url;
  }
  const files = await benchmarkFiles(dir, mock.url, { plan: PLAN, target });
  const env = { SOCRATES_DB: files.dbPath };
  const cli = async (command: "run" | "status", ...more: string[]) => {
    const result = await runCliInProcess(
      ["benchmark", command, "--plan", files.planPath, "--config", files.configPath, ...more],
      env,
    );
    expect(result.status, result.stderr).toBe(0);
    return result.stdout;
  };
  const count = async (query: string) => Number((await rowsAt(files.dbPath, query))[0].n);
  return { cli, count, dbPath: files.dbPath };
}

describe(`benchmark status on ${testEngine()}`, { timeout: 120_000 }, () => {
  it("counts the runs and evaluations the database holds, before, between and after a run", async () => {
    const { cli, count, dbPath } = await setUp();
    const before = figures(await cli("status"));
    expect(before).toEqual({ units: UNITS, runs: RUNS, toSimulate: RUNS, stored: 0, evaluations: RUNS, pending: RUNS });

    const run = await cli("run", "--shard", "1/2");
    expect(run).toMatch(/shard 1\/2: \d+ units/);
    const runs = await count("SELECT count(*) AS n FROM runs");
    const evaluations = await count("SELECT count(*) AS n FROM evaluations");
    // Both shards have work, so the grid is half done.
    expect(runs).toBeGreaterThan(0);
    expect(runs).toBeLessThan(RUNS);
    expect(evaluations).toBe(runs);
    const half = figures(await cli("status"));
    expect(half).toEqual({
      units: UNITS,
      runs: RUNS,
      toSimulate: RUNS - runs,
      stored: runs,
      evaluations: RUNS,
      pending: RUNS - evaluations,
    });
    // The shard that ran has nothing left; the other has everything left.
    expect(figures(await cli("status", "--shard", "1/2"))).toMatchObject({ toSimulate: 0, pending: 0, stored: runs });
    expect(figures(await cli("status", "--shard", "2/2"))).toMatchObject({ stored: 0, toSimulate: RUNS - runs });

    // An evaluation deleted by hand is pending again; its run stays stored.
    const [{ id }] = await rowsAt(dbPath, "SELECT id FROM evaluations ORDER BY id LIMIT 1");
    await deleteEvaluation(dbPath, String(id));
    expect(figures(await cli("status"))).toMatchObject({ stored: runs, pending: RUNS - evaluations + 1 });
  });
});

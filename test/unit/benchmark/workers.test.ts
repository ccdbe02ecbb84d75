/**
 * Several `benchmark run` workers on one database, and a worker killed outright: the real CLI in
 * child processes against the stand-in over HTTP in this process, which counts every request.
 * Two processes on one SQLite file (three on one PostgreSQL database, in the suite's PostgreSQL
 * project) together send no more requests than one alone, no request body twice, and store the
 * same runs; after kill -9 and a resume, at most the requests in flight at the kill are sent again.
 */
import { afterEach, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { spawnCli, until, type CliChild } from "../../helpers/cli.ts";
import { tempDir, testEngine } from "../../../harness/temp-db.ts";
import { pgDatabase } from "../../../harness/postgres.ts";
import { chatRequests, duplicates, servedBodies } from "../pipeline/helpers.ts";
import { benchmarkFiles, rowsAt, SMALL_PLAN } from "./runner-helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** One scenario, two conditions, two mediators, two runs each: 4 units, 12 runs. */
const PLAN = {
  ...SMALL_PLAN,
  name: "shared grid",
  scenarios: { ids: ["t-0"] },
  conditions: { keys: ["general", "emotion:CR"] },
};
/** The stand-in endpoint's concurrency limit in benchmarkConfigJson: the most requests one process has in flight. */
const ENDPOINT_CONCURRENCY = 8;
/** Workers sharing the database: processes on one machine's SQLite file, or machines on one PostgreSQL database. */
const WORKERS = testEngine() === "postgres" ? 3 : 2;

const count = async (target: string, query: string) => Number((await rowsAt(target, query))[0].n);

async function setUp(name: string) {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  // A little latency, so the processes overlap and requests are in flight when one is killed.
  const mock = await startMockLlm({ respond: standInResponder(), latencyMs: { min: 5, max: 40 } });
  cleanups.push(() => mock.close());
  let target: string | undefined;
  if (testEngine() === "postgres") {
    const database = await pgDatabase({ migrated: true });
    cleanups.push(database.drop);
    target = database.url;
  }
  const files = await benchmarkFiles(dir, mock.url, { plan: PLAN, name, target });
  const args = ["benchmark", "run", "--plan", files.planPath, "--config", files.configPath];
  const env = { SOCRATES_DB: files.dbPath };
  return { mock, files, args, env };
}

function start(args: string[], env: Record<string, string>): CliChild {
  const child = spawnCli(args, env);
  cleanups.push(child.kill);
  return child;
}

/** What a finished grid holds: its run ids, and how many evaluations and pairs. */
async function stored(dbPath: string) {
  return {
    runs: (await rowsAt(dbPath, "SELECT id FROM runs ORDER BY id")).map((r) => r.id),
    evaluations: await count(dbPath, "SELECT count(*) AS n FROM evaluations"),
    pairs: await count(dbPath, "SELECT count(*) AS n FROM matched_pairs"),
    leases: await count(dbPath, "SELECT count(*) AS n FROM work_leases"),
  };
}

/** One process alone on a fresh database: the requests it sends and what it stores. */
async function baseline(): Promise<{ requests: number; result: Awaited<ReturnType<typeof stored>> }> {
  const { mock, files, args, env } = await setUp("alone");
  const alone = await start(args, env).exited;
  expect(alone.code, alone.stderr).toBe(0);
  expect(duplicates(servedBodies(mock))).toEqual([]);
  return { requests: chatRequests(mock).length, result: await stored(files.dbPath) };
}

/** The summary's runs simulated by this process and found stored. */
function runCounts(stdout: string): { simulated: number; skipped: number } {
  const m = /runs: (\d+) simulated, (\d+) already stored/.exec(stdout);
  expect(m, stdout).not.toBeNull();
  return { simulated: Number(m![1]), skipped: Number(m![2]) };
}

function bodies(mock: MockLlm): string[] {
  return chatRequests(mock).map((r) => JSON.stringify(r.body));
}

describe("benchmark run: workers sharing one database", { timeout: 240_000 }, () => {
  it(`${WORKERS} processes on one plan send no more requests than one alone, and store the same runs`, async () => {
    const one = await baseline();
    expect(one.result.runs).toHaveLength(12);
    expect(one.result.leases).toBe(0);

    const { mock, files, args, env } = await setUp("shared");
    const exits = await Promise.all(Array.from({ length: WORKERS }, () => start(args, env).exited));
    for (const e of exits) expect(e.code, e.stderr).toBe(0);
    expect(duplicates(bodies(mock))).toEqual([]);
    expect(chatRequests(mock).length).toBeLessThanOrEqual(one.requests);
    // Each run was simulated by one of them; the others count it as already stored.
    const counts = exits.map((r) => runCounts(r.stdout));
    expect(counts.reduce((n, c) => n + c.simulated, 0)).toBe(12);
    expect(counts.map((c) => c.simulated + c.skipped)).toEqual(counts.map(() => 12));
    // Every lease was given up at the end, and the grid is the one a single process makes.
    expect(await stored(files.dbPath)).toEqual(one.result);
  });

  it("after kill -9 and a resume, only the requests in flight at the kill are sent again", async () => {
    const one = await baseline();
    const { mock, files, args, env } = await setUp("killed");
    const first = start(args, env);
    // Killed mid-grid: a run stored, others half done, replies arriving.
    await until(async () => (await count(files.dbPath, "SELECT count(*) AS n FROM runs")) >= 2, "two stored runs");
    process.kill(first.pid, "SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    const runsAtKill = await count(files.dbPath, "SELECT count(*) AS n FROM runs");
    expect(runsAtKill).toBeLessThan(12);
    // In flight at the kill: requests the endpoint received whose outcome is not in llm_calls (each
    // row counts its attempts). On SQLite these are the requests on the wire (at most the endpoint's
    // concurrency) and the replies that arrived in the kill's turn of the event loop, whose slots were
    // free again but whose rows wait for that turn's commit (call-batches.server.ts): at most as many
    // again. On PostgreSQL a reply also waits for its commit's round trip.
    await new Promise((ok) => setTimeout(ok, 100)); // requests already on the wire reach the stand-in
    const recorded = await count(files.dbPath, "SELECT coalesce(sum(attempts), 0) AS n FROM llm_calls");
    const inFlight = chatRequests(mock).length - recorded;
    expect(inFlight).toBeGreaterThanOrEqual(0);
    if (testEngine() === "sqlite") expect(inFlight).toBeLessThanOrEqual(2 * ENDPOINT_CONCURRENCY);
    // The dead worker's leases are still in the table: the resume takes them over (the holder's process is gone).
    expect(await count(files.dbPath, "SELECT count(*) AS n FROM work_leases")).toBeGreaterThan(0);

    const resumed = await start(args, env).exited;
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(await stored(files.dbPath)).toEqual(one.result);
    const sent = chatRequests(mock).length;
    expect(sent).toBeLessThanOrEqual(one.requests + inFlight);
    // A body sent twice was one in flight at the kill.
    expect(duplicates(bodies(mock)).length).toBeLessThanOrEqual(inFlight);
  });
});

/**
 * `socrates benchmark run` as a real child process against the stand-in in the test process (so
 * the endpoint outlives a killed child and sees every request of both processes): kill and
 * resume with no request paid twice, then the report's Tables 3 and 7 checked against the stored
 * metric rows; shards merged by export/import, the spending cap, the dry
 * run, and user errors that name the plan file and the JSON path.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../app/server/db.server.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { loadLlmConfig } from "../../../app/server/llm/config.server.ts";
import { loadPlanFile } from "../../../app/server/benchmark/plan-file.server.ts";
import { runGrid } from "../../../app/server/benchmark/run-grid.server.ts";
import { buildBenchmarkReport } from "../../../app/server/benchmark/report.server.ts";
import { standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { startMockLlm, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { runCli, spawnCli, until, type CliChild } from "../../helpers/cli.ts";
import { runCliInProcess } from "../../helpers/cli-in-process.ts";
import { tempDir } from "../../../harness/temp-db.ts";
import { chatRequests, duplicates, servedBodies } from "../pipeline/helpers.ts";
import { expectTables3And7MatchStoredRows } from "./report/recompute.ts";
import {
  benchmarkFiles,
  column,
  count,
  JUDGE_MODEL,
  MEDIATOR_MODEL,
  PARTY_MODEL,
  SMALL_PLAN,
} from "./runner-helpers.ts";

const RUNS = 2 * 3 * 2 * 3; // units × (unmediated + 2 mediators)

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The real CLI in a child process, killed at the end of the test if it still runs. */
const startCli = (args: string[], env: Record<string, string>): CliChild => killedAfterTest(spawnCli(args, env));
const killedAfterTest = (child: CliChild) => (cleanups.push(child.kill), child);

async function setUp(
  options: {
    latencyMs?: number;
    prices?: Record<string, { inputPerMillion: number; outputPerMillion: number }>;
    plan?: object;
  } = {},
) {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const mock = await startMockLlm({ respond: standInResponder(), latencyMs: options.latencyMs ?? 0 });
  cleanups.push(() => mock.close());
  const files = await benchmarkFiles(dir, mock.url, options);
  const args = (...more: string[]) => [
    "benchmark",
    "run",
    "--plan",
    files.planPath,
    "--config",
    files.configPath,
    ...more,
  ];
  return { dir, mock, files, args, env: { SOCRATES_DB: files.dbPath } };
}

/** Every stored run is whole: its turns table matches its recorded turn count. */
function brokenRuns(dbPath: string): string[] {
  return column(
    dbPath,
    "SELECT r.id FROM runs r WHERE r.total_turns != (SELECT count(*) FROM turns t WHERE t.run_id = r.id)",
  );
}

function noRequestPaidTwice(dbPath: string, mock: MockLlm): void {
  expect(count(dbPath, "SELECT count(*) AS n FROM llm_calls WHERE status = 'ok' AND attempts != 1")).toBe(0);
  expect(duplicates(servedBodies(mock))).toEqual([]);
}

function expectComplete(dbPath: string): void {
  expect(count(dbPath, "SELECT count(*) AS n FROM runs")).toBe(RUNS);
  expect(count(dbPath, "SELECT count(*) AS n FROM matched_pairs")).toBe((RUNS / 3) * 2);
  expect(
    count(
      dbPath,
      "SELECT count(*) AS n FROM evaluations WHERE method = 'topic-localized' AND backbone = ?",
      JUDGE_MODEL,
    ),
  ).toBe(RUNS);
  expect(count(dbPath, "SELECT count(DISTINCT subject_id) AS n FROM metric_values WHERE subject_kind = 'run'")).toBe(
    (RUNS / 3) * 2,
  ); // mediated runs
  expect(count(dbPath, "SELECT count(DISTINCT subject_id) AS n FROM metric_values WHERE subject_kind = 'pair'")).toBe(
    (RUNS / 3) * 2,
  );
  expect(brokenRuns(dbPath)).toEqual([]);
}

/** The same command again runs the grid to completion, and across all processes no request was paid twice. */
async function resumesToCompletion(
  setup: Pick<Awaited<ReturnType<typeof setUp>>, "mock" | "files" | "args" | "env">,
): Promise<{ stdout: string; stderr: string }> {
  const resumed = await startCli(setup.args(), setup.env).exited;
  expect(resumed.code).toBe(0);
  expectComplete(setup.files.dbPath);
  noRequestPaidTwice(setup.files.dbPath, setup.mock);
  return resumed;
}

// Several CLI processes, each compiling TypeScript on start: more time than the default.
describe("socrates benchmark run", { timeout: 120_000 }, () => {
  it("resumes after a kill with no request paid twice", async () => {
    const { mock, files, args, env } = await setUp({ latencyMs: 15 });
    const reader = new Database(files.dbPath, { readonly: true });
    cleanups.push(() => reader.close());
    const n = (sql: string) => (reader.prepare(sql).get() as { n: number }).n;
    const answeredForUnstoredRuns = () =>
      n("SELECT count(*) AS n FROM llm_calls WHERE status = 'ok' AND subject NOT IN (SELECT id FROM runs)");

    // Kill once runs are stored and others are half done; freeze the endpoint first and wait until
    // the child recorded every reply it was sent (a reply killed in transit would rightly be asked again).
    const first = startCli(args(), env);
    await until(
      () => n("SELECT count(*) AS n FROM runs") >= 3 && answeredForUnstoredRuns() >= 1,
      "stored runs and a run half done",
    );
    mock.setFaults([{ fault: { kind: "slow", delayMs: 3_000 }, times: 1_000_000 }]);
    await until(
      () => chatRequests(mock).some((r) => r.status === undefined && r.fault === "slow"),
      "a request in flight at the kill",
    );
    // Every request the endpoint did not freeze must be answered first: one still in its latency at
    // the kill would be answered to the dead child, and rightly asked again by the resumed one.
    const answeredOrFrozen = () => chatRequests(mock).every((r) => r.status !== undefined || r.fault === "slow");
    await until(
      () =>
        answeredOrFrozen() &&
        n("SELECT count(*) AS n FROM llm_calls WHERE status = 'ok'") === servedBodies(mock).length,
      "the child to record every reply",
    );
    process.kill(first.pid, "SIGKILL");
    expect((await first.exited).signal).toBe("SIGKILL");
    const storedAtKill = n("SELECT count(*) AS n FROM runs");
    expect(storedAtKill).toBeLessThan(RUNS);
    expect(brokenRuns(files.dbPath)).toEqual([]);

    mock.setFaults([]);
    const second = await resumesToCompletion({ mock, files, args, env });
    expect(second.stderr).not.toMatch(/failed|error/i);
    expect(second.stdout).toContain(`runs: ${RUNS - storedAtKill} simulated, ${storedAtKill} already stored`);
    // The progress line (in a log, at most every few seconds and always at the last step): it ends complete.
    expect(second.stderr).toMatch(/benchmark (\d+)\/\1 steps · /);

    // The report over the resumed grid: Tables 3 and 7 equal a recomputation from the stored rows.
    const db = await openDatabase(files.dbPath);
    cleanups.push(() => db.$client.close());
    const loaded = loadPlanFile(files.planPath);
    expect(await expectTables3And7MatchStoredRows(db, loaded, await buildBenchmarkReport(db, loaded))).toBeGreaterThan(
      0,
    );
  });

  it("splits the grid into shards whose merged databases equal one unsharded run", async () => {
    const { dir, mock, files, args } = await setUp();
    const second = await benchmarkFiles(dir, mock.url, { name: "shard2" });
    const whole = await benchmarkFiles(dir, mock.url, { name: "whole" });
    const [a, b] = await Promise.all([
      startCli(args("--shard", "1/2"), { SOCRATES_DB: files.dbPath }).exited,
      startCli(args("--shard", "2/2"), { SOCRATES_DB: second.dbPath }).exited,
    ]);
    expect([a.code, b.code, a.stderr + b.stderr]).toEqual([0, 0, expect.not.stringMatching(/failed/)]);
    const shardRuns = [files.dbPath, second.dbPath].map((p) => count(p, "SELECT count(*) AS n FROM runs"));
    expect(shardRuns.every((k) => k > 0 && k < RUNS)).toBe(true);

    const bundle = join(dir, "shard2.json");
    expect(runCli(["export", bundle], { SOCRATES_DB: second.dbPath }).status).toBe(0);
    expect(runCli(["import", bundle], { SOCRATES_DB: files.dbPath }).status).toBe(0);
    // Bundles carry no metric rows: one more run over the merged database computes them, asking nothing.
    const asked = mock.requests.length;
    const merged = await startCli(args(), { SOCRATES_DB: files.dbPath }).exited;
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain(`runs: 0 simulated, ${RUNS} already stored`);
    expect(mock.requests.length).toBe(asked);

    const db = await openDatabase(whole.dbPath);
    cleanups.push(() => db.$client.close());
    const config = loadLlmConfig(files.configPath);
    await runGrid({ db, llm: createLlm({ db, config }), config, loaded: loadPlanFile(files.planPath) });
    const facts = (p: string) => [
      column(p, "SELECT id || ' ' || total_turns || ' ' || outcome FROM runs ORDER BY id"),
      column(p, "SELECT id || ' ' || unmediated_run_id FROM matched_pairs ORDER BY id"),
      column(p, "SELECT id FROM evaluations ORDER BY id"),
      column(p, "SELECT group_concat(utterance, '|') FROM (SELECT utterance FROM turns ORDER BY run_id, turn_id)"),
    ];
    expect(facts(files.dbPath)).toEqual(facts(whole.dbPath));
    expectComplete(files.dbPath);
  });

  it("stops at the spending cap with nothing half stored, and resumes after", async () => {
    const price = { inputPerMillion: 1_000, outputPerMillion: 1_000 }; // about $1 a call: a few calls reach the cap
    const { mock, files, args, env } = await setUp({
      prices: { [PARTY_MODEL]: price, [MEDIATOR_MODEL]: price, [JUDGE_MODEL]: price },
    });
    const capped = await startCli(args("--max-cost", "20", "--concurrency", "2"), env).exited;
    expect(capped.code).toBe(1);
    expect(capped.stdout).toMatch(/estimated cost: \$\d+\.\d\d/);
    expect(capped.stderr).toContain("the spending cap of $20.00 was reached");
    expect(capped.stderr).toContain("--max-cost");
    const spent = (dbPath: string) => count(dbPath, "SELECT coalesce(sum(cost_usd), 0) AS n FROM llm_calls");
    expect(spent(files.dbPath)).toBeGreaterThan(0);
    expect(spent(files.dbPath)).toBeLessThanOrEqual(20);
    expect(count(files.dbPath, "SELECT count(*) AS n FROM runs")).toBeLessThan(RUNS);
    expect(brokenRuns(files.dbPath)).toEqual([]);
    // Every request the endpoint answered before the stop was waited for and recorded (the other
    // worker's call in flight included), so the resume pays for none of them again.
    expect(count(files.dbPath, "SELECT count(*) AS n FROM llm_calls WHERE status = 'ok'")).toBe(
      servedBodies(mock).length,
    );

    await resumesToCompletion({ mock, files, args, env });
  });

  // Commands that change nothing and bad input run in the test's process (runCliInProcess); the
  // others need a process of their own (a kill, a signal, several at once).
  it("--dry-run prints the grid and the estimate and stores nothing", async () => {
    const { mock, files, args, env } = await setUp();
    const result = await runCliInProcess(args("--dry-run"), env);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("main: 12 units, 36 runs (36 to simulate, 0 stored), 36 evaluations (36 pending)");
    expect(result.stdout).toMatch(
      /estimate: at most \d+ LLM calls \(216 party turns, 180 mediator decisions, 420 mediator turns, 144 judge calls\)/,
    );
    for (const table of ["runs", "evaluations", "benchmark_plans", "llm_calls", "settings", "metric_values"]) {
      expect(count(files.dbPath, `SELECT count(*) AS n FROM ${table}`)).toBe(0);
    }
    expect(mock.requests).toHaveLength(0);

    // With the configuration, status matches runs on the roles' sampling too, as `run` does.
    const statusArgs = ["benchmark", "status", "--plan", files.planPath];
    const status = await runCliInProcess([...statusArgs, "--config", files.configPath], env);
    expect(status.status).toBe(0);
    expect(status.stdout).toContain("main: 12 units, 36 runs (36 to simulate, 0 stored), 36 evaluations (36 pending)");
    expect(status.stdout).not.toContain("no LLM configuration");
    const noConfig = await runCliInProcess(["benchmark", "status", "--plan", files.planPath], env);
    expect(noConfig.stdout).toContain("no LLM configuration (");
    expect(noConfig.stdout).toContain("main: 12 units, 36 runs (36 to simulate, 0 stored)");
    const absent = join(files.configPath, "..", "absent.json");
    const withoutConfig = await runCliInProcess([...statusArgs, "--config", absent], env);
    expect(withoutConfig.status).toBe(2);
    expect(withoutConfig.stderr).toContain("absent.json: cannot read the LLM configuration (ENOENT)");
  });

  it("stops cleanly on Ctrl-C (SIGINT) and resumes", async () => {
    const { mock, files, args, env } = await setUp({ latencyMs: 15 });
    const child = startCli(args(), env);
    await until(() => count(files.dbPath, "SELECT count(*) AS n FROM runs") >= 1, "a stored run");
    process.kill(child.pid, "SIGINT");
    const stopped = await child.exited;
    expect(stopped.code).toBe(130);
    // One line for the stop, before the summary; the work dropped in flight is not a failure.
    const interrupted = stopped.stderr.split("\n").filter((l) => /interrupted/.test(l));
    expect(interrupted).toHaveLength(1);
    expect(interrupted[0]).toMatch(/^interrupted: finishing nothing new; \d+ done, \d+ in flight dropped$/);
    expect(stopped.stdout).not.toMatch(/^failed /m);
    expect(stopped.stderr).toContain(
      `nothing half done was stored. Resume with: SOCRATES_DB=${files.dbPath} npx socrates benchmark run --plan ${files.planPath} --config ${files.configPath}`,
    );
    expect(brokenRuns(files.dbPath)).toEqual([]);
    await resumesToCompletion({ mock, files, args, env });
  });

  it("exits 2 naming the plan file and the JSON path of a bad plan, an unknown endpoint or a missing condition", async () => {
    const { dir, files, args, env } = await setUp();
    const write = (plan: object) => writeFileSync(files.planPath, JSON.stringify(plan));

    write({ ...SMALL_PLAN, runs: 0 });
    let result = await runCliInProcess(args(), env);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${files.planPath}: $.runs:`);

    write({
      ...SMALL_PLAN,
      mediators: [SMALL_PLAN.mediators[0], { ...SMALL_PLAN.mediators[1], endpoint: "elsewhere" }],
    });
    result = await runCliInProcess(args(), env);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${files.planPath}: $.mediators[1].endpoint: unknown endpoint "elsewhere"`);

    write({ ...SMALL_PLAN, scenarios: { ids: ["t-0", "nowhere"] } });
    result = await runCliInProcess(args(), env);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${files.planPath}: $.scenarios.ids: the database holds no scenario "nowhere"`);

    const bare = await benchmarkFiles(dir, "http://127.0.0.1:9/v1", { name: "bare" });
    const db = new Database(bare.dbPath);
    db.prepare("DELETE FROM conditions WHERE axis = 'emotion'").run();
    db.close();
    result = await runCliInProcess(args("--dry-run"), { SOCRATES_DB: bare.dbPath });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("t-0 emotion:CR");
    expect(result.stderr).toContain("npx socrates probe");
  });
});

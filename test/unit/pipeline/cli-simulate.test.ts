/**
 * `socrates simulate` input handling and --dry-run through the real CLI (no endpoint contacted), and --emotion against
 * the stand-in.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "../../../app/server/db.server.ts";
import { seedDemo } from "../../../demo/seed.ts";
import { printedCommand, runCli, spawnCli } from "../../helpers/cli.ts";
import { runCliInProcess } from "../../helpers/cli-in-process.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tableCounts, tempDir } from "../../../harness/temp-db.ts";
import { MEDIATOR_MODEL, PARTY_MODEL, simulationConfigJson } from "./helpers.ts";
import { SIMULATION_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const { dir, cleanup } = tempDir();
  cleanups.push(cleanup);
  const dbPath = join(dir, "cli.db");
  const db = await openDatabase(dbPath);
  await seedDemo(db);
  const counts = await tableCounts(db);
  db.$client.close();
  const configPath = join(dir, "socrates.config.json");
  // Port 9 (discard): nothing listens, so any request would fail loudly.
  writeFileSync(configPath, JSON.stringify(simulationConfigJson("http://127.0.0.1:9/v1")));
  return { dbPath, configPath, counts, env: { SOCRATES_DB: dbPath } };
}

// Each CLI start compiles TypeScript on the fly (a few seconds), so these tests get more time.
describe("socrates simulate", { timeout: 90_000 }, () => {
  it("--dry-run lists the runs and the most calls they could make, and writes nothing", async () => {
    const { configPath, counts, env, dbPath } = await setup();
    const result = runCli(
      [
        "simulate",
        "--scenario",
        "demo-transactional-1",
        "--mediator",
        MEDIATOR_MODEL,
        "--runs",
        "2",
        "--budget",
        "10",
        "--config",
        configPath,
        "--dry-run",
      ],
      env,
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.stdout).toContain(`simulator ${PARTY_MODEL}; mediator ${MEDIATOR_MODEL}`);
    expect(result.stdout).toContain("runs: 4 to simulate, 0 already stored");
    expect(result.stdout).toContain(`demo-transactional-1:general:${MEDIATOR_MODEL}:${PARTY_MODEL}:r1`);
    expect(result.stdout).toContain("at most 76 LLM calls (40 party turns, 18 mediator decisions, 18 mediator turns)");
    const db = await openDatabase(dbPath);
    cleanups.push(() => db.$client.close());
    expect(await tableCounts(db)).toEqual(counts);
  });

  it("--mediator-mode picks the mediator and its settings; a setting on the wrong mode exits 2", async () => {
    const { configPath, env } = await setup();
    const base = ["simulate", "--scenario", "demo-transactional-1", "--mediator", MEDIATOR_MODEL, "--budget", "10"];
    const social = await runCliInProcess(
      [...base, "--mediator-mode", "social", "--mediator-frequency", "more", "--config", configPath, "--dry-run"],
      env,
    );
    expect(social.status).toBe(0);
    expect(social.stdout).toContain(`mediator ${MEDIATOR_MODEL} (social, frequency more, memory 8)`);
    expect(social.stdout).toContain(`demo-transactional-1:general:${MEDIATOR_MODEL}:social-more:${PARTY_MODEL}:r0`);
    // 20 party turns, 9 gaps × 2 decision calls, 9 gaps × 6 intervention calls at most.
    expect(social.stdout).toContain("at most 92 LLM calls (20 party turns, 18 mediator decisions, 54 mediator turns)");
    const wrong = await runCliInProcess(
      [...base, "--mediator-mode", "naive", "--mediator-memory", "4", "--config", configPath, "--dry-run"],
      env,
    );
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('the mediator frequency and memory go with mode "social", not "naive"');
  });

  it("--no-with-unmediated plans mediated runs only", async () => {
    const { configPath, env } = await setup();
    const result = runCli(
      [
        "simulate",
        "--scenario",
        "demo-transactional-1",
        "--mediator",
        MEDIATOR_MODEL,
        "--runs",
        "3",
        "--no-with-unmediated",
        "--config",
        configPath,
        "--dry-run",
      ],
      env,
    );
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("runs: 3 to simulate");
    expect(result.stdout).not.toContain(":none:");
  });

  it("names bad input and exits with code 2", async () => {
    const { configPath, env } = await setup();
    const base = ["simulate", "--mediator", "none", "--config", configPath];
    const unknown = runCli([...base, "--scenario", "no-such-scenario"], env);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('unknown scenario "no-such-scenario"');
    const badRuns = runCli([...base, "--scenario", "demo-transactional-1", "--runs", "two"], env);
    expect(badRuns.status).toBe(2);
    expect(badRuns.stderr).toContain('--runs must be a whole number from 1 to 10000, got "two"');
    const noConfig = runCli(
      [
        "simulate",
        "--scenario",
        "demo-transactional-1",
        "--mediator",
        "none",
        "--config",
        "/nonexistent/socrates.config.json",
      ],
      env,
    );
    expect(noConfig.status).toBe(2);
    expect(noConfig.stderr).toContain("/nonexistent/socrates.config.json: cannot read the LLM configuration (ENOENT)");
    const noMediator = runCli(["simulate", "--scenario", "demo-transactional-1", "--config", configPath], env);
    expect(noMediator.status).toBe(2);
    expect(noMediator.stderr).toContain("--mediator");
  });

  it("reports a run that cannot reach its endpoint as failed, stores nothing, and exits non-zero", async () => {
    const { configPath, env, dbPath, counts } = await setup();
    const result = runCli(
      ["simulate", "--scenario", "demo-transactional-1", "--mediator", "none", "--budget", "4", "--config", configPath],
      env,
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toContain("runs: 0 stored, 0 already stored (skipped), 1 failed");
    expect(result.stdout).toMatch(
      /failed demo-transactional-1:general:none:sim-party:r0:[0-9a-f]{10}: turn 1 \(BAKERY\): .*127\.0\.0\.1:9/,
    );
    const db = await openDatabase(dbPath);
    cleanups.push(() => db.$client.close());
    const after = await tableCounts(db);
    expect({ ...after, llm_calls: 0 }).toEqual({ ...counts, llm_calls: 0 }); // only the failed call is on record
  });

  it("prints a resume command with every option given, which runs as printed once the endpoint answers", async () => {
    const { configPath, env, dbPath } = await setup();
    // In the order the command declares its options, which is the order the printed command keeps.
    const given = [
      "simulate",
      "--scenario",
      "demo-transactional-1",
      "--mediator",
      "none",
      "--seed",
      "11",
      "--budget",
      "4",
      "--config",
      configPath,
    ];
    const failed = runCli(given, env);
    expect(failed.status).toBe(1);
    const printed = /Resume with: (.+)$/m.exec(failed.stderr)?.[1];
    expect(printed, failed.stderr).toBeDefined();
    const { env: printedEnv, args } = printedCommand(printed!);
    expect({ env: printedEnv, args: args.join(" ") }).toEqual({ env: { SOCRATES_DB: dbPath }, args: given.join(" ") });

    const mock = await startMockLlm({ respond: standInResponder({ roles: SIMULATION_ROLES }) });
    cleanups.push(() => mock.close());
    writeFileSync(configPath, JSON.stringify(simulationConfigJson(mock.url)));
    const resumed = await spawnCli(args, printedEnv).exited;
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain("runs: 1 stored");
    const db = await openDatabase(dbPath);
    cleanups.push(() => db.$client.close());
    // The options the user gave reached the resumed run: its seed and turn budget.
    const configs = (
      db.$client.prepare(`SELECT config FROM runs WHERE config LIKE '%"base_seed":11%'`).all() as { config: string }[]
    ).map((r) => JSON.parse(r.config));
    expect(configs).toEqual([expect.objectContaining({ base_seed: 11, turn_budget: 4 })]);
  });

  it("--emotion stores each party turn's self-reported emotion, and --help says so", async () => {
    const { configPath, env, dbPath } = await setup();
    const mock = await startMockLlm({ respond: standInResponder({ roles: SIMULATION_ROLES }) });
    cleanups.push(() => mock.close());
    writeFileSync(configPath, JSON.stringify(simulationConfigJson(mock.url)));
    const run = await spawnCli(
      [
        "simulate",
        "--scenario",
        "demo-transactional-1",
        "--mediator",
        "none",
        "--budget",
        "4",
        "--emotion",
        "--config",
        configPath,
      ],
      env,
    ).exited;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("runs: 1 stored");
    const db = await openDatabase(dbPath);
    cleanups.push(() => db.$client.close());
    const rows = db.$client
      .prepare("SELECT emotion, emotion_reason AS reason FROM turns WHERE run_id LIKE ?")
      .all("demo-transactional-1:general:none:sim-party:r0:%") as { emotion: number | null; reason: string | null }[];
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(Number.isInteger(row.emotion) && !!row.reason).toBe(true);

    expect(runCli(["simulate", "--help"]).stdout).toMatch(/--emotion +parties also rate how they feel each turn/);
    expect(runCli(["fidelity", "pairs", "--help"]).stdout).toMatch(
      /--emotion +parties also rate how they feel each turn/,
    );
  });
});

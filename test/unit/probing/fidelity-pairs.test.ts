/**
 * Persona-fidelity pairs generated over real HTTP against the stand-in endpoint: N pairs stored
 * with non-zero level differences and balanced sides, levels tied to the runs' personas, nothing
 * new on a re-run, resumable after an interruption without asking the endpoint twice, and a
 * tampered pair refused with its JSON path. One test drives the real CLI.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { exportBundle, importBundleFiles, BundleImportError } from "../../../app/server/bundle-store.server.ts";
import { type Db, openDatabase } from "../../../app/server/db.server.ts";
import { generateFidelityPairs } from "../../../app/server/fidelity/generate.server.ts";
import { planFidelity } from "../../../app/server/fidelity/plan.server.ts";
import { seedDemo } from "../../../demo/seed.ts";
import { startMockLlm, type FaultRule, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import Database from "better-sqlite3";
import { spawnCli, until } from "../../helpers/cli.ts";
import { tableCounts, tempDb } from "../../../harness/temp-db.ts";
import { chatRequests, duplicates, servedBodies, simulationConfigJson, testLlm } from "../pipeline/helpers.ts";
import { SIMULATION_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

const SIMULATOR = "sim-under-test";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(faults: FaultRule[] = []) {
  const t = await tempDb();
  cleanups.push(t.cleanup);
  await seedDemo(t.db);
  const mock = await startMockLlm({ respond: standInResponder({ roles: SIMULATION_ROLES }), faults });
  cleanups.push(() => mock.close());
  return { ...t, mock, llm: testLlm(t.db, mock) };
}

const generatedPairs = async (db: Db) =>
  (await exportBundle(db)).ab_pairs.filter((p) => p.id.startsWith(`fidelity:${SIMULATOR}:`));

async function checkPairs(db: Db, count: number): Promise<void> {
  const bundle = await exportBundle(db);
  const pairs = await generatedPairs(db);
  expect(pairs).toHaveLength(count);
  const runs = new Map(bundle.runs.map((r) => [r.id, r]));
  const conditions = new Map(bundle.conditions.map((c) => [c.id, c]));
  for (const pair of pairs) {
    expect(pair.level_a, pair.id).not.toBe(pair.level_b);
    const [a, b] = [runs.get(pair.run_a_id)!, runs.get(pair.run_b_id)!];
    expect([a.simulator_backbone, b.simulator_backbone, a.mediated, b.mediated]).toEqual([
      SIMULATOR,
      SIMULATOR,
      false,
      false,
    ]);
    expect([a.seed, a.config]).toEqual([b.seed, b.config]);
    for (const [run, level] of [
      [a, pair.level_a],
      [b, pair.level_b],
    ] as const) {
      const parties = conditions.get(run.condition_id)!.expanded!.parties;
      for (const p of parties)
        expect(p.reactiveness, `${run.id} ${p.id}`).toBe(p.id === pair.target_party ? level : pair.opponent_level);
    }
  }
  const aHigher = pairs.filter((p) => p.level_a > p.level_b).length;
  expect(Math.abs(aHigher - (pairs.length - aHigher))).toBeLessThanOrEqual(1);
}

function partyPrompts(mock: MockLlm) {
  return chatRequests(mock).map((r) => r.body.messages.find((m) => m.role === "system")!.content);
}

describe("socrates fidelity pairs (server)", () => {
  it("stores N pairs with non-zero level differences and balanced sides, each party prompt carrying only its own level", async () => {
    const { db, mock, llm } = await setup([{ fault: { kind: "5xx", status: 503 }, times: 2, fromRequest: 4 }]);
    // Two server errors on the way are retried by the client, not lost.
    const summary = await generateFidelityPairs({
      db,
      llm,
      simulator: SIMULATOR,
      pairs: 6,
      seed: 3,
      budget: 4,
      concurrency: 2,
    });
    expect(summary.pairsStored).toHaveLength(6);
    expect(summary.failed).toEqual([]);
    expect(chatRequests(mock).filter((r) => r.status === 503)).toHaveLength(2);
    await checkPairs(db, 6);
    expect(new Set(chatRequests(mock).map((r) => r.body.model))).toEqual(new Set([SIMULATOR]));
    // Each party prompt holds exactly one reactiveness statement: the speaker's own.
    for (const system of partyPrompts(mock)) expect(system.match(/Emotional reactiveness: /g)).toHaveLength(1);
    // The stand-in lets the level show: the same target speaks differently in the two runs of a pair.
    const bundle = await exportBundle(db);
    const runs = new Map(bundle.runs.map((r) => [r.id, r]));
    for (const pair of await generatedPairs(db)) {
      const words = (id: string) =>
        runs
          .get(id)!
          .turns.filter((t) => t.speaker === pair.target_party)
          .map((t) => t.utterance);
      expect(words(pair.run_a_id)[0], pair.id).not.toBe(words(pair.run_b_id)[0]);
    }
  });

  it("a re-run stores nothing and calls nothing; the export re-imports unchanged", async () => {
    const { db, mock, llm } = await setup();
    await generateFidelityPairs({ db, llm, simulator: SIMULATOR, pairs: 4, seed: 3, budget: 4 });
    const counts = await tableCounts(db);
    const requests = mock.requests.length;
    const again = await generateFidelityPairs({ db, llm, simulator: SIMULATOR, pairs: 4, seed: 3, budget: 4 });
    expect([again.pairsStored, again.runsStored, again.conditionsCreated, again.pairsAlreadyStored.length]).toEqual([
      [],
      [],
      0,
      4,
    ]);
    expect(mock.requests.length).toBe(requests);
    expect(await tableCounts(db)).toEqual(counts);
    const reimport = await importBundleFiles(db, [
      { file: "export.json", text: JSON.stringify(await exportBundle(db)) },
    ]);
    expect(Object.values(reimport.inserted).every((n) => n === 0)).toBe(true);
    expect(reimport.unchanged.ab_pairs).toBe(20); // 16 demo pairs and these 4
  });

  it("resumes after an interruption: every pair stored once, no request answered twice", async () => {
    const { db, mock, llm } = await setup();
    const controller = new AbortController();
    const first = await generateFidelityPairs({
      db,
      llm,
      simulator: SIMULATOR,
      pairs: 4,
      seed: 5,
      budget: 4,
      concurrency: 2,
      signal: controller.signal,
      onEvent: (e) => void (e.type === "stored" && controller.abort()),
    });
    expect(first.aborted.length).toBeGreaterThan(0);
    expect(first.pairsFailed.length).toBeGreaterThan(0);
    const second = await generateFidelityPairs({
      db,
      llm,
      simulator: SIMULATOR,
      pairs: 4,
      seed: 5,
      budget: 4,
      concurrency: 2,
    });
    expect(second.pairsStored.length + first.pairsStored.length).toBe(4);
    expect(second.calls.cached).toBeGreaterThan(0); // the interrupted runs replay their calls from the cache
    await checkPairs(db, 4);
    expect(duplicates(servedBodies(mock))).toEqual([]);
  });

  it("a generated pair tampered on import is refused with its JSON path, and nothing is stored", async () => {
    const { db, llm } = await setup();
    await generateFidelityPairs({ db, llm, simulator: SIMULATOR, pairs: 2, seed: 3, budget: 4 });
    const [pair] = await generatedPairs(db);
    const counts = await tableCounts(db);
    const tampered = {
      format: "socrates-bundle",
      version: 1,
      ab_pairs: [{ ...pair, id: "tampered", level_b: pair.level_a === 1 ? 0 : 1 }],
    };
    let problems: { path: string }[] = [];
    try {
      await importBundleFiles(db, [{ file: "tampered.json", text: JSON.stringify(tampered) }]);
    } catch (err) {
      if (!(err instanceof BundleImportError)) throw err;
      problems = err.problems;
    }
    expect(problems.map((p) => p.path)).toEqual(["$.ab_pairs[0].level_b"]);
    expect(await tableCounts(db)).toEqual(counts);
  });

  it("refuses an unknown scenario, and plans new runs and a new pair for another budget", async () => {
    const { db, llm } = await setup();
    await expect(planFidelity({ db, llm, simulator: SIMULATOR, pairs: 1, scenarios: ["nope"] })).rejects.toThrow(
      /unknown scenario "nope"/,
    );
    const first = await generateFidelityPairs({ db, llm, simulator: SIMULATOR, pairs: 1, seed: 3, budget: 4 });
    const again = await planFidelity({ db, llm, simulator: SIMULATOR, pairs: 1, seed: 3, budget: 4 });
    expect(again.pairs[0]).toMatchObject({
      stored: true,
      record: { id: first.pairsStored[0] },
      runA: { stored: true },
      runB: { stored: true },
    });
    const longer = await planFidelity({ db, llm, simulator: SIMULATOR, pairs: 1, seed: 3, budget: 5 });
    expect(longer.pairs[0]).toMatchObject({ stored: false, runA: { stored: false }, runB: { stored: false } });
    expect(longer.pairs[0].record.id).not.toBe(first.pairsStored[0]);
    expect(longer.pairs[0].runA.runId).not.toBe(again.pairs[0].runA.runId);
    // Both draws are the same pair of conditions: only the runs' settings differ.
    expect(longer.pairs[0].runA.conditionId).toBe(again.pairs[0].runA.conditionId);
  });
});

describe("socrates fidelity pairs (CLI)", { timeout: 120_000 }, () => {
  it("stores the pairs with a progress bar and a summary, stores nothing on a re-run, and previews with --dry-run", async () => {
    const t = await tempDb();
    cleanups.push(t.cleanup);
    await seedDemo(t.db);
    const mock = await startMockLlm({ respond: standInResponder({ roles: SIMULATION_ROLES }) });
    cleanups.push(() => mock.close());
    const configPath = join(t.dir, "socrates.config.json");
    writeFileSync(configPath, JSON.stringify(simulationConfigJson(mock.url)));
    const env = { SOCRATES_DB: t.path };
    const args = [
      "fidelity",
      "pairs",
      "--simulator",
      SIMULATOR,
      "--pairs",
      "4",
      "--scenarios",
      "demo-transactional-1,demo-healthcare-1",
      "--budget",
      "4",
      "--config",
      configPath,
    ];

    const dry = await spawnCli([...args, "--dry-run"], env).exited;
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain("pairs: 4 to store, 0 already stored");
    expect(dry.stdout).toMatch(/runs: 8 to simulate; at most 32 LLM calls/);
    expect(mock.requests).toHaveLength(0);

    const first = await spawnCli(args, env).exited;
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain("pairs: 4 stored, 0 already stored, 0 failed");
    expect(first.stdout).toContain("balance: A higher in 2, B higher in 2");
    expect(first.stdout).toMatch(/level differences: (1\/3|2\/3|1) apart in \d+ pairs?/);
    expect(first.stderr).toMatch(/fidelity 8\/8 .*cost \$0\.\d{4}; ETA /);
    const db = await openDatabase(t.path);
    cleanups.push(() => db.$client.close());
    await checkPairs(db, 4);
    const requests = mock.requests.length;

    const again = await spawnCli(args, env).exited;
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain("pairs: 0 stored, 4 already stored, 0 failed");
    expect(again.stdout).toContain("LLM calls: 0 made, 0 from cache");
    expect(mock.requests.length).toBe(requests);

    const bad = await spawnCli(
      ["fidelity", "pairs", "--simulator", SIMULATOR, "--pairs", "0", "--config", configPath],
      env,
    ).exited;
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--pairs must be a whole number from 1 to 10000, got "0"');
  });

  it("resumes after the process is killed mid-batch: each pair stored once, each request answered once", async () => {
    const t = await tempDb();
    cleanups.push(t.cleanup);
    await seedDemo(t.db);
    const mock = await startMockLlm({ respond: standInResponder({ roles: SIMULATION_ROLES }), latencyMs: 5 });
    cleanups.push(() => mock.close());
    const configPath = join(t.dir, "socrates.config.json");
    writeFileSync(configPath, JSON.stringify(simulationConfigJson(mock.url)));
    const env = { SOCRATES_DB: t.path };
    const args = [
      "fidelity",
      "pairs",
      "--simulator",
      SIMULATOR,
      "--pairs",
      "2",
      "--seed",
      "4",
      "--budget",
      "6",
      "--concurrency",
      "2",
      "--config",
      configPath,
    ];
    const reader = new Database(t.path, { readonly: true });
    cleanups.push(() => reader.close());
    const count = (sql: string) => (reader.prepare(sql).get(`%${SIMULATOR}%`) as { n: number }).n;
    const storedRuns = () => count("SELECT count(*) AS n FROM runs WHERE id LIKE ?");
    const storedPairs = () => count("SELECT count(*) AS n FROM ab_pairs WHERE id LIKE ?");
    const answeredForUnstored = () =>
      count(
        "SELECT count(*) AS n FROM llm_calls WHERE status = 'ok' AND subject LIKE ? AND subject NOT IN (SELECT id FROM runs)",
      );
    const recorded = () =>
      (reader.prepare("SELECT count(*) AS n FROM llm_calls WHERE status = 'ok'").get() as { n: number }).n;

    // Kill once a run is stored and another is half done, after the child recorded every reply it got.
    const first = spawnCli(args, env);
    cleanups.push(first.kill);
    await until(() => storedRuns() >= 1 && answeredForUnstored() >= 1, "a stored run and a run half done");
    mock.setFaults([{ fault: { kind: "slow", delayMs: 3_000 }, times: 1_000_000 }]);
    // Every request but the frozen ones answered, and every answer recorded: nothing is lost in transit.
    const settled = () => chatRequests(mock).every((r) => r.status !== undefined || r.fault === "slow");
    await until(
      () => chatRequests(mock).some((r) => r.fault === "slow") && settled() && recorded() === servedBodies(mock).length,
      "the child to record every reply",
    );
    process.kill(first.pid, "SIGKILL");
    await first.exited;
    const pairsAtKill = storedPairs();
    const answeredAtKill = answeredForUnstored();
    expect(storedRuns()).toBeLessThan(4);

    mock.setFaults([]);
    const second = await spawnCli(args, env).exited;
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toContain(`pairs: ${2 - pairsAtKill} stored, ${pairsAtKill} already stored, 0 failed`);
    const cached = /LLM calls: \d+ made, (\d+) from cache/.exec(second.stdout)?.[1];
    expect(Number(cached)).toBe(answeredAtKill); // the interrupted runs replay every call answered before the kill
    expect(duplicates(servedBodies(mock))).toEqual([]);
    expect([storedRuns(), storedPairs()]).toEqual([4, 2]);
  });
});

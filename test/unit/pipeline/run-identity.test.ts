/**
 * A run's identity (app/domain/simulation/run-identity.ts) over real SQLite files and the
 * stand-in over HTTP: every setting that changes a run makes new runs, the same settings make
 * no request, and a database made before identities existed migrates with its runs, which the
 * same settings then reuse.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { parseBenchmarkPlan } from "../../../app/domain/benchmark/plan.ts";
import { sha256Hex } from "../../../app/domain/sha256.ts";
import {
  identityHashes,
  plannedRunSettings,
  recordedIdentity,
  recordedRunSettings,
  runConfigOf,
  settingsHash,
} from "../../../app/domain/simulation/run-identity.ts";
import { planGrid } from "../../../app/server/benchmark/plan-file.server.ts";
import { backfillRunIdentity, openDatabase, type Db } from "../../../app/server/db.server.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { parseLlmConfig } from "../../../app/server/llm/config.server.ts";
import { planBatch, simulateBatch } from "../../../app/server/pipeline/simulate.server.ts";
import { seedDemo } from "../../../demo/seed.ts";
import { startMockLlm, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { databaseAt } from "../../helpers/migrations.ts";
import { tableCounts, tempDb } from "../../../harness/temp-db.ts";
import { chatRequests, MEDIATOR_MODEL, PARTY_MODEL, simulationConfigJson, slotOf, testLlm } from "./helpers.ts";
import { SIMULATION_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

const SCENARIO = "demo-transactional-1";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function standIn(): Promise<MockLlm> {
  const mock = await startMockLlm({ respond: standInResponder({ roles: SIMULATION_ROLES }), latencyMs: 0 });
  cleanups.push(() => mock.close());
  return mock;
}

const settings = plannedRunSettings({
  conditionId: "c:general",
  simulatorModel: "sim",
  simulatorSampling: { temperature: 0.7, max_tokens: null },
  mediator: { model: "med", mode: "generic", sampling: { temperature: 0.2, max_tokens: 600 } },
  budget: 12,
  baseSeed: 7,
  runIndex: 1,
  promptVersion: "aebd91047c11",
  emotion: false,
});

describe("run identity (pure)", () => {
  it("hashes with SHA-256 exactly as node:crypto does", () => {
    for (const text of ["", "abc", "a".repeat(55), "a".repeat(56), "a".repeat(64), "é ✓ 𝄞 ".repeat(50)]) {
      expect(sha256Hex(text)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
    }
  });

  it("gives a run's recorded config the settings it was planned with, and an older run's config its legacy hash", () => {
    const recorded = {
      condition_id: "c:general",
      simulator_backbone: "sim",
      mediator_backbone: "med",
      config: runConfigOf(settings),
      seed: settings.seed,
    };
    expect(recordedRunSettings(recorded)).toEqual(settings);
    expect(recordedIdentity(recorded).settingsHash).toBe(settingsHash(settings));
    // What `simulate` recorded before runs recorded sampling (no mediator_mode: the generic prompt).
    const legacy = {
      ...recorded,
      config: { turn_budget: 12, base_seed: 7, run_index: 1, prompt_version: "aebd91047c11" },
    };
    expect(recordedIdentity(legacy)).toEqual({
      settingsHash: identityHashes(settings).legacy,
      settingsKey: identityHashes(settings).legacy,
    });
    expect(identityHashes(settings).hash).not.toBe(identityHashes(settings).legacy);
    // Any recorded setting that differs is another identity.
    for (const config of [
      { ...legacy.config, turn_budget: 20 },
      { ...legacy.config, base_seed: 99 },
      { ...legacy.config, emotion: true },
      { ...legacy.config, prompt_version: "other" },
      { ...legacy.config, mediator_mode: "social" },
    ]) {
      expect(recordedIdentity({ ...legacy, config }).settingsHash).not.toBe(identityHashes(settings).legacy);
    }
  });
});

describe("simulate finds stored runs by their settings", { timeout: 60_000 }, () => {
  it("makes new runs for --seed 99 --budget 10 after seed 7 at 12, and none (no request) for settings already stored", async () => {
    const t = await tempDb();
    cleanups.push(t.cleanup);
    await seedDemo(t.db);
    const mock = await standIn();
    const llm = testLlm(t.db, mock);
    const options = { db: t.db, llm, scenarioId: SCENARIO, mediator: MEDIATOR_MODEL, runs: 2 };

    const seven = await simulateBatch({ ...options, seed: 7, budget: 12 });
    expect(seven.failed).toEqual([]);
    expect(seven.stored).toHaveLength(4);
    const ninetyNine = await simulateBatch({ ...options, seed: 99, budget: 10 });
    expect(ninetyNine.skipped).toEqual([]);
    expect(ninetyNine.stored).toHaveLength(4);
    expect(ninetyNine.stored.filter((id) => seven.stored.includes(id))).toEqual([]);
    // Same slots (condition, mediator, simulator, index), other settings: other runs, configs as asked.
    expect(ninetyNine.stored.map(slotOf).sort()).toEqual(seven.stored.map(slotOf).sort());
    const configs = t.db.$client
      .prepare("SELECT id, config FROM runs WHERE simulator_backbone = ?")
      .all(PARTY_MODEL) as { id: string; config: string }[];
    for (const row of configs) {
      const config = JSON.parse(row.config) as { turn_budget: number; base_seed: number };
      expect([config.base_seed, config.turn_budget]).toEqual(ninetyNine.stored.includes(row.id) ? [99, 10] : [7, 12]);
    }

    // Identical settings again: every run is found, and the endpoint hears nothing.
    const requests = mock.requests.length;
    for (const [seed, budget] of [
      [99, 10],
      [7, 12],
    ]) {
      const again = await simulateBatch({ ...options, seed, budget });
      expect(again.stored).toEqual([]);
      expect(again.skipped.sort()).toEqual((seed === 7 ? seven : ninetyNine).stored.sort());
    }
    expect(mock.requests.length).toBe(requests);

    // A changed sampling parameter of a role is a changed run too.
    const hotter = createLlm({
      db: t.db,
      config: parseLlmConfig(withPartyTemperature(mock.url, 1.1), "hotter"),
      sleep: async () => {},
    });
    const plan = await planBatch({ ...options, llm: hotter, seed: 7, budget: 12 });
    expect(plan.runs.map((r) => r.stored)).toEqual([false, false, false, false]);
    expect(plan.runs.map((r) => r.runId).filter((id) => seven.stored.includes(id))).toEqual([]);
  });
});

function withPartyTemperature(url: string, temperature: number): object {
  const config = simulationConfigJson(url) as { roles: Record<string, object> };
  return { ...config, roles: { ...config.roles, party: { ...config.roles.party, temperature } } };
}

/** The columns a table has in `sqlite` (main or an attached schema). */
function columnsOf(sqlite: Database.Database, table: string, schema = "main"): string[] {
  return (sqlite.prepare(`PRAGMA ${schema}.table_info("${table}")`).all() as { name: string }[]).map((c) => c.name);
}

/**
 * A database at migration 0014 holding what the old code stored: the catalogue, and the runs and
 * pairs of `source` under the ids the old code gave them (`<condition>:<mediator>:<simulator>:r<i>`,
 * no settings hash) with the config it recorded (no sampling).
 */
function oldShapeDatabase(source: string, dir: string): string {
  const old = databaseAt("0014_issue19_child_row_triggers");
  const path = join(dir, "old.db");
  old.sqlite.exec(`VACUUM INTO '${path}'`);
  old.cleanup();
  const sqlite = new Database(path);
  sqlite.pragma("foreign_keys = OFF");
  sqlite.prepare("ATTACH DATABASE ? AS src").run(source);
  sqlite.function("old_id", (id: unknown) =>
    typeof id === "string" ? slotOf(id.replace(/:pair$/, "")) + (id.endsWith(":pair") ? ":pair" : "") : id,
  );
  const copy = (table: string, rewrite: Record<string, string> = {}) => {
    const cols = columnsOf(sqlite, table);
    const select = cols.map((c) => rewrite[c] ?? `"${c}"`).join(", ");
    sqlite.exec(
      `INSERT INTO main."${table}" (${cols.map((c) => `"${c}"`).join(", ")}) SELECT ${select} FROM src."${table}"`,
    );
  };
  for (const table of ["scenarios", "conditions"]) copy(table);
  copy("runs", { id: "old_id(id)", config: "json_remove(config, '$.sampling')" });
  for (const table of ["turns", "snippets"]) copy(table, { run_id: "old_id(run_id)" });
  copy("matched_pairs", {
    id: "old_id(id)",
    mediated_run_id: "old_id(mediated_run_id)",
    unmediated_run_id: "old_id(unmediated_run_id)",
  });
  sqlite.exec("DETACH DATABASE src");
  expect(columnsOf(sqlite, "runs")).not.toContain("settings_hash");
  sqlite.close();
  return path;
}

describe("a database made before run identities", { timeout: 60_000 }, () => {
  it("migrates with every run under its old id, and the same settings reuse them without a request", async () => {
    const made = await tempDb();
    cleanups.push(made.cleanup);
    await seedDemo(made.db);
    const first = await standIn();
    const options = { scenarioId: SCENARIO, mediator: MEDIATOR_MODEL, runs: 2, seed: 7, budget: 6 };
    const stored = await simulateBatch({ ...options, db: made.db, llm: testLlm(made.db, first) });
    expect(stored.stored).toHaveLength(4);
    const path = oldShapeDatabase(made.path, made.dir);

    const before = new Database(path, { readonly: true });
    const oldRuns = (
      before.prepare("SELECT id, config FROM runs ORDER BY id").all() as { id: string; config: string }[]
    ).map((r) => r.id);
    before.close();
    expect(oldRuns).toEqual([...stored.stored.map(slotOf), ...demoRunIds(made.db)].sort());

    // Opening applies migration 0015 and backfills each run's identity from what it recorded.
    const db = await openDatabase(path);
    cleanups.push(() => db.$client.close());
    const counts = await tableCounts(db);
    expect(
      db.$client
        .prepare("SELECT id FROM runs ORDER BY id")
        .all()
        .map((r) => (r as { id: string }).id),
    ).toEqual(oldRuns);
    expect(
      db.$client.prepare("SELECT count(*) AS n FROM runs WHERE settings_hash IS NULL OR settings_key IS NULL").get(),
    ).toEqual({ n: 0 });
    expect(await backfillRunIdentity(db)).toBe(0); // idempotent: nothing left to fill
    expect(await tableCounts(await openDatabase(path))).toEqual(counts);

    // The same settings, a stand-in that has never answered anything: every run is found under its old id.
    const fresh = await standIn();
    const plan = await planBatch({ ...options, db, llm: testLlm(db, fresh) });
    expect(plan.runs.map((r) => [r.runId, r.stored])).toEqual(stored.plan.runs.map((r) => [slotOf(r.runId), true]));
    expect(plan.pairs.map((p) => [p.id, p.stored])).toEqual(
      stored.plan.pairs.map((p) => [`${slotOf(p.mediatedRunId)}:pair`, true]),
    );
    const again = await simulateBatch({ ...options, db, llm: testLlm(db, fresh) });
    expect(again.stored).toEqual([]);
    expect(chatRequests(fresh)).toHaveLength(0);
    expect(await tableCounts(db)).toEqual(counts);

    // A benchmark plan with the same settings finds them too (simulate's runs are the generic mediator's).
    const benchmarkPlan = parseBenchmarkPlan(
      {
        name: "same settings",
        scenarios: { ids: [SCENARIO] },
        conditions: { keys: ["general"] },
        mediators: [{ name: "M", model: MEDIATOR_MODEL }],
        simulator: { model: PARTY_MODEL },
        evaluator: { model: "judge" },
        runs: 2,
        budget: 6,
        seed: 7,
      },
      "plan",
    );
    const sampling = {
      party: { temperature: 0.7, max_tokens: null },
      mediator: { temperature: 0.2, max_tokens: null },
    };
    const units = (await planGrid(db, benchmarkPlan, sampling)).units;
    expect(units.flatMap((u) => [u.mediated[0].runId, u.unmediatedRunId]).sort()).toEqual(
      stored.stored.map(slotOf).sort(),
    );
    // …and a budget the old runs were not made with finds none of them.
    expect(
      (await planGrid(db, { ...benchmarkPlan, budget: 20 }, sampling)).units
        .flatMap((u) => [u.unmediatedRunId, ...u.mediated.map((m) => m.runId)])
        .filter((id) => oldRuns.includes(id)),
    ).toEqual([]);
  });
});

/** The runs the demo seed stores (hand-written bundles and recorded fidelity pairs), under the old ids. */
function demoRunIds(db: Db): string[] {
  return (
    db.$client.prepare("SELECT id FROM runs WHERE simulator_backbone != ?").all(PARTY_MODEL) as { id: string }[]
  ).map((r) => slotOf(r.id));
}

/**
 * The benchmark pipeline end to end, over real HTTP: the `socrates` CLI simulates a mediated and
 * an unmediated run of a demo scenario against the mock LLM server, judges them with both
 * evaluators, computes the metrics, and the production web server shows the new runs with
 * their dialogue and metrics. The CLI runs in child processes started asynchronously, so the
 * mock server in this process keeps answering while they wait on it.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { and, asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema.ts";
import { createAccount } from "../../app/server/annotation/accounts.server.ts";
import { seedDemo } from "../../demo/seed.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import type { CliResult } from "../helpers/cli.ts";
import { loginCookie } from "../../harness/login.ts";
import { tempDb } from "../../harness/temp-db.ts";
import { mockConfigJson } from "../../app/server/llm/stand-in/config.server.ts";
import { startMockLlm, type MockLlm } from "../../app/server/llm/stand-in/endpoint.server.ts";
import { JUDGE_ROLES, SIMULATION_ROLES, standInResponder } from "../../app/llm-roles/stand-in.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const SCENARIO = "demo-transactional-1";
const MODEL = "mock-model"; // every configured role (mockConfigJson)
const MEDIATOR = "mock-mediator"; // given on the command line, as --mediator
const ADMIN = { username: "admin", password: "test-admin-pass" };

/** The real CLI in a child process, without blocking this process's event loop (runCli would). */
function socrates(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(ROOT, "scripts/socrates.mjs"), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c));
    child.stderr.on("data", (c: Buffer) => (stderr += c));
    child.once("error", fail);
    child.once("close", (status) => done({ status, stdout, stderr }));
  });
}

/** Text as React writes it into server-rendered HTML. */
function html(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");
}

const chatRequests = (mock: MockLlm) => mock.requests.filter((r) => r.path === "/v1/chat/completions");

describe("benchmark pipeline end to end: CLI → mock LLM over HTTP → database → run viewer", () => {
  const cleanups: (() => unknown)[] = [];
  let t: Awaited<ReturnType<typeof tempDb>>;
  let mock: MockLlm;
  let env: Record<string, string>;
  let config: string;
  let mediated: string;
  let unmediated: string;

  beforeAll(async () => {
    t = await tempDb();
    cleanups.push(t.cleanup);
    await seedDemo(t.db);
    await createAccount(t.db, {
      username: ADMIN.username,
      displayName: "Admin",
      role: "admin",
      password: ADMIN.password,
    });
    mock = await startMockLlm({
      respond: standInResponder({ roles: [...JUDGE_ROLES, ...SIMULATION_ROLES] }),
      latencyMs: { min: 1, max: 5 },
      seed: 3,
    });
    cleanups.push(() => mock.close());
    config = join(t.dir, "socrates.config.json");
    writeFileSync(
      config,
      JSON.stringify(
        mockConfigJson(mock.url, { endpoint: { concurrency: 8, timeoutMs: 10_000, maxRetries: 1 } }),
        null,
        2,
      ),
    );
    env = { SOCRATES_DB: t.path };
  });
  afterAll(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it("simulates a mediated and an unmediated run of a demo scenario and stores them as a matched pair", async () => {
    const result = await socrates(
      ["simulate", "--scenario", SCENARIO, "--mediator", MEDIATOR, "--runs", "1", "--config", config],
      env,
    );
    const runs = await t.db
      .select()
      .from(schema.runs)
      .where(and(eq(schema.runs.scenarioId, SCENARIO), eq(schema.runs.simulatorBackbone, MODEL)))
      .orderBy(asc(schema.runs.id));
    mediated = runs.find((r) => r.mediated)?.id ?? "(no mediated run stored)";
    unmediated = runs.find((r) => !r.mediated)?.id ?? "(no unmediated run stored)";

    expect(result.stderr).not.toMatch(/failed|error/i);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("runs: 2 stored, 0 already stored (skipped), 0 failed");
    expect(result.stdout).toContain("matched pairs stored: 1");
    expect(runs.map((r) => r.mediatorBackbone).sort()).toEqual([MEDIATOR, null]);
    for (const run of runs) expect(run.partyTurns).toBeGreaterThan(0);
    const pair = (
      await t.db.select().from(schema.matchedPairs).where(eq(schema.matchedPairs.mediatedRunId, mediated)).limit(1)
    )[0];
    expect(pair?.unmediatedRunId).toBe(unmediated);
    // The mediated run asked its mediator (by the model named on the command line) after party turns.
    const models = chatRequests(mock).map((r) => (r.body as { model: string }).model);
    expect(models).toContain(MODEL);
    expect(models).toContain(MEDIATOR);
    expect(chatRequests(mock).every((r) => r.status === 200)).toBe(true);
  }, 60_000);

  it("evaluates every run with the topic-localized evaluator and the per-turn baseline", async () => {
    const runCount = (await t.db.select({ id: schema.runs.id }).from(schema.runs)).length;
    for (const method of ["topic", "per-turn"]) {
      const result = await socrates(["evaluate", "--all", "--method", method, "--config", config], env);
      expect(result.status, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toContain(`${method} with ${MODEL}: ${runCount} stored`);
      expect(result.stdout).toContain(", 0 failed");
    }
    const evaluations = await t.db
      .select({
        runId: schema.evaluations.runId,
        method: schema.evaluations.method,
        backbone: schema.evaluations.backbone,
        errors: schema.evaluations.errors,
      })
      .from(schema.evaluations)
      .where(inArray(schema.evaluations.runId, [mediated, unmediated]))
      .orderBy(asc(schema.evaluations.runId), asc(schema.evaluations.method));
    expect(evaluations.map(({ runId, method, backbone }) => ({ runId, method, backbone }))).toEqual(
      [mediated, unmediated].sort().flatMap((runId) => [
        { runId, method: "per-turn", backbone: MODEL },
        { runId, method: "topic-localized", backbone: MODEL },
      ]),
    );
    for (const e of evaluations) expect(e.errors ?? []).toEqual([]);

    // Evaluating again finds everything done and asks the endpoint for nothing.
    const before = chatRequests(mock).length;
    const again = await socrates(["evaluate", "--all", "--method", "topic", "--config", config], env);
    expect(again.stdout).toContain(`topic with ${MODEL}: 0 stored, ${runCount} skipped, 0 failed`);
    expect(chatRequests(mock).length).toBe(before);
  }, 60_000);

  it("computes the metrics of the new runs and their matched pair", async () => {
    const result = await socrates(["metrics"], env);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain(mediated);
    const rows = await t.db
      .select({
        subjectId: schema.metricValues.subjectId,
        metric: schema.metricValues.metric,
        evaluationId: schema.metricValues.evaluationId,
      })
      .from(schema.metricValues)
      .where(inArray(schema.metricValues.subjectId, [mediated, unmediated]));
    const metricsOf = (runId: string) => new Set(rows.filter((r) => r.subjectId === runId).map((r) => r.metric));
    // The run's own metrics, the topic-localized ones and the per-turn ones, for each run.
    for (const metric of ["IF", "IT", "CC", "TLE"]) expect(metricsOf(mediated)).toContain(metric);
    // Mediator metrics belong to mediated runs: the unmediated run has CC and TLE only.
    expect([...metricsOf(unmediated)].sort()).toEqual(["CC", "TLE"]);
    const pairId = (
      await t.db.select().from(schema.matchedPairs).where(eq(schema.matchedPairs.mediatedRunId, mediated)).limit(1)
    )[0]!.id;
    const cg = await t.db
      .select()
      .from(schema.metricValues)
      .where(and(eq(schema.metricValues.subjectId, pairId), eq(schema.metricValues.metric, "CG")));
    expect(cg.length).toBeGreaterThan(0);
  }, 60_000);

  describe("the web app on the same database", () => {
    let server: AppServer;
    let cookie: string;
    beforeAll(async () => {
      server = await startAppServer({ dbPath: t.path });
      cookie = await loginCookie(server.url, ADMIN);
    });
    afterAll(async () => {
      await server?.stop();
    });

    it("lists the new runs for an admin", async () => {
      const anonymous = await fetch(server.url + "/runs", { redirect: "manual" });
      expect(anonymous.status).not.toBe(200); // admin-only

      const res = await fetch(server.url + "/runs", { headers: { cookie } });
      expect(res.status).toBe(200);
      const page = await res.text();
      for (const runId of [mediated, unmediated]) expect(page).toContain(`href="/runs/${encodeURIComponent(runId)}"`);
    });

    it("shows each new run's dialogue, consensus chart and metrics panel", async () => {
      for (const runId of [mediated, unmediated]) {
        const res = await fetch(`${server.url}/runs/${encodeURIComponent(runId)}`, { headers: { cookie } });
        expect(res.status).toBe(200);
        const page = await res.text();
        const turns = await t.db
          .select()
          .from(schema.turns)
          .where(eq(schema.turns.runId, runId))
          .orderBy(asc(schema.turns.turnId));
        expect(page).toContain('data-testid="dialogue"');
        expect(page).toContain(html(turns[0].utterance));
        expect(page).toContain(html(turns[turns.length - 1].utterance));
        expect(page).toContain('data-testid="consensus-chart"');
        expect(page).toContain('data-testid="metrics"');
        expect(page).not.toContain("No metrics computed for this run yet");
        for (const metric of runId === mediated ? ["IF", "IT", "CC"] : ["CC", "CG"])
          expect(page).toContain(`data-metric="${metric}"`);
        if (runId === unmediated) expect(page).not.toContain('data-metric="IT"');
        // One metrics table per evaluation of this run.
        expect(page).toContain(`<h3>Topic-localized C[t] · ${MODEL}</h3>`);
        expect(page).toContain(`<h3>Per-turn baseline G[t] · ${MODEL}</h3>`);
      }
    });
  });
});

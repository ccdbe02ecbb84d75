import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { newEvaluationId } from "../../../app/server/pipeline/evaluation-identity.server.ts";
import { seedDemo } from "../../../demo/seed.ts";
import { currentMetricParams } from "../../../app/server/pipeline/metric-settings.server.ts";
import { DEFAULT_METRIC_PARAMS } from "../../../app/domain/metrics/metric-params.ts";
import { METRIC_IDS } from "../../../app/domain/metrics/registry.ts";
import * as schema from "../../../db/schema.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { runCliInProcess } from "../../helpers/cli-in-process.ts";
import { chatRequests } from "./helpers.ts";
import { EMOTION_MODEL, evaluationConfigJson, JUDGE_MODEL, MEDIATED } from "./evaluation-helpers.ts";
import { JUDGE_ROLES, standInResponder } from "../../../app/llm-roles/stand-in.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

// The commands run in the test's process (runCliInProcess: the bin's `main`, its output and exit
// code), beside the stand-in endpoint: nothing here is about the process boundary.

async function setup() {
  const t = await tempDb();
  cleanups.push(t.cleanup);
  await seedDemo(t.db);
  const mock = await startMockLlm({ respond: standInResponder({ roles: JUDGE_ROLES }) });
  cleanups.push(() => mock.close());
  const config = join(t.dir, "socrates.config.json");
  writeFileSync(config, JSON.stringify(evaluationConfigJson(mock.url)));
  return { ...t, mock, config, env: { SOCRATES_DB: t.path, SOCRATES_CONFIG: config } };
}

describe("socrates evaluate and socrates metrics", () => {
  it("prints the planned calls on --dry-run, then evaluates and reports calls made", async () => {
    const { db, mock, env } = await setup();
    const dry = await runCliInProcess(["evaluate", "--run", MEDIATED, "--method", "topic", "--dry-run"], env);
    expect(dry.stderr).toBe("");
    expect(dry.status).toBe(0);
    expect(dry.stdout).toContain(`topic with ${JUDGE_MODEL}: 1 run to evaluate, 0 skipped`);
    expect(dry.stdout).toContain("3 LLM calls");
    expect(chatRequests(mock)).toHaveLength(0);

    const real = await runCliInProcess(["evaluate", "--run", MEDIATED, "--method", "topic"], env);
    expect(real.status).toBe(0);
    expect(real.stdout).toContain(`topic with ${JUDGE_MODEL}: 1 stored, 0 skipped, 0 failed`);
    expect(real.stdout).toMatch(/LLM calls: 3 made, 0 from cache/);
    expect(real.stdout).toMatch(/tokens \(new calls\): \d+ prompt \+ \d+ completion; cost \$0\.0000/);
    expect((await db.select().from(schema.evaluations)).map((e) => e.id)).toContain(
      newEvaluationId(MEDIATED, "topic-localized", JUDGE_MODEL),
    );

    const again = await runCliInProcess(["evaluate", "--all", "--method", "topic", "--dry-run"], env);
    expect(again.stdout).toMatch(/1 skipped \(already done or nothing to judge\)/);
  });

  it("stores the emotion judge's evaluation of a run, and a second call asks nothing", async () => {
    const { db, mock, env } = await setup();
    const real = await runCliInProcess(["evaluate", "--run", MEDIATED, "--method", "emotion"], env);
    expect(real.status).toBe(0);
    expect(real.stdout).toContain(`emotion with ${EMOTION_MODEL}: 1 stored, 0 skipped, 0 failed`);
    expect(real.stdout).toMatch(/LLM calls: 2 made, 0 from cache/);
    const stored = (await db.select().from(schema.evaluations)).filter((e) => e.method === "emotion");
    expect(stored.map((e) => e.id)).toEqual([newEvaluationId(MEDIATED, "emotion", EMOTION_MODEL)]);
    expect(Object.keys(stored[0].output as object).sort()).toEqual(["BAKERY", "VENDOR"]);

    const again = await runCliInProcess(["evaluate", "--run", MEDIATED, "--method", "emotion"], env);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain(`emotion with ${EMOTION_MODEL}: 0 stored, 1 skipped, 0 failed`);
    expect(chatRequests(mock)).toHaveLength(2);

    const help = await runCliInProcess(["evaluate", "--help"], env);
    expect(help.stdout).toContain("emotion    each party's emotion 0-100");
  });

  it("refuses bad input with exit code 2 and a message", async () => {
    const env = { SOCRATES_CONFIG: "/nonexistent/socrates.config.json" };
    const neither = await runCliInProcess(["evaluate", "--method", "topic"], env);
    expect(neither.status).toBe(2);
    expect(neither.stderr).toContain("give either --run <id> or --all");
    const method = await runCliInProcess(["evaluate", "--all", "--method", "judge"], env);
    expect(method.status).toBe(2);
    expect(method.stderr).toContain('--method must be one of topic, per-turn, mi, emotion, got "judge"');
    const config = await runCliInProcess(["evaluate", "--all", "--method", "mi"], env);
    expect(config.status).toBe(2);
    expect(config.stderr).toContain("/nonexistent/socrates.config.json: cannot read the LLM configuration");
  });

  it("computes and stores metrics, printing a table and the parameters", async () => {
    const t = await tempDb();
    cleanups.push(t.cleanup);
    await seedDemo(t.db);
    const env = { SOCRATES_DB: t.path };
    const result = await runCliInProcess(["metrics", "--run", MEDIATED, "--params", '{"h":3}'], env);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines[0]).toMatch(/^subject\s+basis\s+IT\s+IE\s+IF\s+FI\s+CC\s+TLE\s+RL\s+ME\s+MI\s+CG\b/);
    // One column per registered metric, in registry order.
    expect(lines[0].trim().split(/\s+/)).toEqual(["subject", "basis", ...METRIC_IDS]);
    expect(lines.some((l) => l.startsWith(`${MEDIATED} `) && l.includes("topic-localized:demo-judge"))).toBe(true);
    expect(lines.some((l) => l.startsWith("pair demo-transactional-1:general:pair"))).toBe(true);
    expect(result.stdout).toContain("params: s0=1 δ=0.05 W=10 h=3");
    const stored = await t.db.select().from(schema.metricValues);
    expect(stored.find((r) => r.metric === "IE")!.params).toEqual({ s0: 1, h: 3 });
    // The parameters are recorded for what reads results later (the dashboard's alignment reads s0).
    expect(await currentMetricParams(t.db)).toEqual({ ...DEFAULT_METRIC_PARAMS, h: 3 });
    expect(result.stdout).toContain(
      "IT, IE, IF, FI, RL, ME, MI and ER are mediator metrics: unmediated runs have none.",
    );

    const bad = await runCliInProcess(["metrics", "--params", '{"window":3}'], env);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/params: \$: Unrecognized key\(s\) in object: 'window'/);
  });
});

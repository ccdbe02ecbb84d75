/**
 * The benchmark runner with the plan's emotion judge, over real HTTP against the stand-in: every
 * run of a tiny grid without self-report gets one emotion-judge evaluation (one call per party),
 * the estimate counts those calls, and a second pass asks nothing.
 */
import { afterEach, describe, expect, it } from "vitest";
import { newEvaluationId } from "../../../app/server/pipeline/evaluation-identity.server.ts";
import { openDatabase } from "../../../app/server/db.server.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { loadLlmConfig, parseLlmConfig } from "../../../app/server/llm/config.server.ts";
import { countsByPart, estimateShardCost } from "../../../app/server/benchmark/grid-work.server.ts";
import { loadPlanFile } from "../../../app/server/benchmark/plan-file.server.ts";
import { prepareGridRun, runGrid } from "../../../app/server/benchmark/run-grid.server.ts";
import { BenchmarkPlanError, parseBenchmarkPlan } from "../../../app/domain/benchmark/plan.ts";
import { checkPlanAgainstConfig } from "../../../app/server/benchmark/plan-check.server.ts";
import { standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDir } from "../../../harness/temp-db.ts";
import {
  benchmarkConfigJson,
  benchmarkFiles,
  column,
  MEDIATOR_MODEL,
  PARTY_MODEL,
  JUDGE_MODEL,
} from "./runner-helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const JUDGE = "standin-emotion";

/** One scenario-condition, one mediator, one run: a unit of two runs, judged for emotion. */
const EMOTION_PLAN = {
  name: "emotion judge grid",
  scenarios: { ids: ["t-0"] },
  conditions: { keys: ["general"] },
  mediators: [{ name: "Generic", model: MEDIATOR_MODEL }],
  simulator: { model: PARTY_MODEL },
  evaluator: { model: JUDGE_MODEL },
  runs: 1,
  budget: 6,
  emotion: { selfReport: false, judge: { model: JUDGE } },
};

const emotionRequests = (bodies: string[]) =>
  bodies.filter((b) => b.includes("You read a finished negotiation from the side of one party"));

describe("benchmark run with an emotion judge", { timeout: 60_000 }, () => {
  it("judges every run without self-report once per party, counts it in the estimate, and a re-run asks nothing", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const mock = await startMockLlm({ respond: standInResponder(), latencyMs: 0 });
    cleanups.push(() => mock.close());
    const files = await benchmarkFiles(dir, mock.url, { plan: EMOTION_PLAN });
    const db = await openDatabase(files.dbPath);
    cleanups.push(() => db.$client.close());
    const config = loadLlmConfig(files.configPath);
    const loaded = loadPlanFile(files.planPath);

    // The estimate: per run, one topic-judge call per topic (4) and one emotion-judge call per party (2).
    const work = await prepareGridRun({ db, config, loaded });
    const runIds = work.units.flatMap((w) => w.runs.map((r) => r.runId));
    expect(runIds).toHaveLength(2);
    expect(work.units[0].runs.map((r) => r.emotionJudge)).toEqual(["pending", "pending"]);
    expect((await estimateShardCost(db, loaded.plan, config, work.units)).calls.judgeCalls).toBe(2 * (4 + 2));

    const steps: number[] = [];
    const summary = await runGrid({
      db,
      llm: createLlm({ db, config, sleep: async () => {} }),
      config,
      loaded,
      onStart: (n) => steps.push(n),
    });
    expect(summary.failures).toEqual([]);
    expect(steps).toEqual([2 * 3]); // each run simulated, topic-judged and emotion-judged
    expect(summary.evaluations).toEqual({ stored: 4, skipped: 0 });

    const bodies = mock.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => JSON.stringify(r.body));
    expect(emotionRequests(bodies)).toHaveLength(2 * 2);
    for (const body of emotionRequests(bodies)) expect(JSON.parse(body).model).toBe(JUDGE);
    expect(column(files.dbPath, "SELECT id FROM evaluations WHERE method = 'emotion' ORDER BY id")).toEqual(
      runIds.map((id) => newEvaluationId(id, "emotion", JUDGE)).sort(),
    );
    expect(
      column(
        files.dbPath,
        "SELECT count(*) FROM evaluations WHERE method = 'emotion' AND errors IS NOT NULL AND errors != '[]'",
      ),
    ).toEqual([0]);

    // A second pass finds everything stored, plans nothing for the judge, and asks nothing.
    const before = mock.requests.length;
    const again = await prepareGridRun({ db, config, loaded });
    expect(again.units[0].runs.map((r) => r.emotionJudge)).toEqual(["done", "done"]);
    expect((await estimateShardCost(db, loaded.plan, config, again.units)).calls.judgeCalls).toBe(0);
    const second = await runGrid({ db, llm: createLlm({ db, config }), config, loaded });
    expect(second.evaluations).toEqual({ stored: 0, skipped: 4 });
    expect(mock.requests.length).toBe(before);

    // The same grid under a plan that now asks for self-report: self-report is part of a run's
    // identity, so none of the stored runs is taken for it; its runs are new and need no judge.
    const selfReporting = {
      ...loaded,
      plan: { ...loaded.plan, emotion: { selfReport: true, judge: { model: JUDGE } } },
    };
    const fresh = await prepareGridRun({ db, config, loaded: selfReporting });
    expect(countsByPart(fresh.units).main).toMatchObject({ runs: 2, runsStored: 0, emotionPending: 0 });
    for (const r of fresh.units[0].runs) expect(runIds).not.toContain(r.runId);
  });

  it("with selfReport, the parties report their emotion every turn, the judge is not needed, and the emotion metrics are stored", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const mock = await startMockLlm({ respond: standInResponder(), latencyMs: 0 });
    cleanups.push(() => mock.close());
    const files = await benchmarkFiles(dir, mock.url, {
      plan: { ...EMOTION_PLAN, emotion: { selfReport: true, judge: { model: JUDGE } } },
    });
    const db = await openDatabase(files.dbPath);
    cleanups.push(() => db.$client.close());
    const config = loadLlmConfig(files.configPath);
    const loaded = loadPlanFile(files.planPath);

    const summary = await runGrid({ db, llm: createLlm({ db, config, sleep: async () => {} }), config, loaded });
    expect(summary.failures).toEqual([]);
    const bodies = mock.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => JSON.stringify(r.body));
    expect(emotionRequests(bodies)).toEqual([]); // self-reported runs need no judge
    expect(
      column(
        files.dbPath,
        "SELECT count(*) FROM turns WHERE role = 'party' AND (emotion IS NULL OR emotion_reason IS NULL)",
      ),
    ).toEqual([0]);
    expect(column(files.dbPath, "SELECT count(*) FROM turns WHERE role = 'mediator' AND emotion IS NOT NULL")).toEqual([
      0,
    ]);
    expect(column(files.dbPath, "SELECT DISTINCT json_extract(config, '$.emotion') FROM runs")).toEqual([1]);
    // Final emotion and volatility for both runs, emotional repair for the mediated one only.
    expect(
      column(
        files.dbPath,
        "SELECT metric || ':' || (subject_id LIKE '%none%') FROM metric_values WHERE metric IN ('ER', 'EF', 'EV') ORDER BY 1",
      ),
    ).toEqual(["EF:0", "EF:1", "ER:0", "EV:0", "EV:1"]);
  });

  it("refuses a plan with an emotion judge when the configuration has no emotion-judge role", () => {
    const json = benchmarkConfigJson("http://127.0.0.1:9/v1") as { roles: Record<string, unknown> };
    delete json.roles["emotion-judge"];
    const config = parseLlmConfig(json, "socrates.config.json");
    const plan = parseBenchmarkPlan(EMOTION_PLAN, "plan.json");
    expect(() => checkPlanAgainstConfig(plan, "plan.json", config)).toThrow(BenchmarkPlanError);
    expect(() => checkPlanAgainstConfig(plan, "plan.json", config)).toThrow(/needs role "emotion-judge"/);
  });
});

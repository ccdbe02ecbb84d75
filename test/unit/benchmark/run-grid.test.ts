/**
 * The benchmark runner over real HTTP against the stand-in and a real SQLite file: a small plan
 * runs to completion (every run, pair, evaluation and metric row), the unmediated run of each
 * unit is stored once and shared by both mediators' pairs, and the social mediator speaks from
 * its own templates.
 */
import { afterEach, describe, expect, it } from "vitest";
import { parseBenchmarkPlan } from "../../../app/domain/benchmark/plan.ts";
import { parseMetricParams } from "../../../app/domain/metrics/metric-params.ts";
import { newEvaluationId } from "../../../app/server/pipeline/evaluation-identity.server.ts";
import { openDatabase } from "../../../app/server/db.server.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { loadLlmConfig } from "../../../app/server/llm/config.server.ts";
import { loadPlanFile, planGrid } from "../../../app/server/benchmark/plan-file.server.ts";
import { runGrid } from "../../../app/server/benchmark/run-grid.server.ts";
import { readSetting, SETTING_KEYS } from "../../../app/server/models/setting.server.ts";
import { standInResponder } from "../../../app/llm-roles/stand-in.ts";
import { startMockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";
import { tempDir } from "../../../harness/temp-db.ts";
import { benchmarkFiles, column, count, JUDGE_MODEL, SMALL_PLAN } from "./runner-helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe("benchmark run", { timeout: 60_000 }, () => {
  it("simulates, judges and measures the whole grid, sharing each unit's unmediated run", async () => {
    const { dir, cleanup } = tempDir();
    cleanups.push(cleanup);
    const mock = await startMockLlm({ respond: standInResponder(), latencyMs: 0 });
    cleanups.push(() => mock.close());
    const files = await benchmarkFiles(dir, mock.url);
    const db = await openDatabase(files.dbPath);
    cleanups.push(() => db.$client.close());
    const config = loadLlmConfig(files.configPath);
    const loaded = loadPlanFile(files.planPath);
    const steps: number[] = [];
    const summary = await runGrid({
      db,
      llm: createLlm({ db, config, sleep: async () => {} }),
      config,
      loaded,
      onStart: (n) => steps.push(n),
    });

    expect(summary.failures).toEqual([]);
    expect(summary.stopped).toBeNull();
    const units = (await planGrid(db, parseBenchmarkPlan(SMALL_PLAN, "plan"))).units;
    expect(units).toHaveLength(2 * 3 * 2);
    expect(steps).toEqual([units.length * 3 * 2]); // 3 runs per unit, each simulated and judged once
    expect(summary.runs).toEqual({ stored: units.length * 3, skipped: 0 });
    expect(summary.pairsStored).toBe(units.length * 2);

    const runIds = units.flatMap((u) => [u.unmediatedRunId, ...u.mediated.map((m) => m.runId)]);
    expect(column(files.dbPath, "SELECT id FROM runs ORDER BY id")).toEqual([...runIds].sort());
    for (const unit of units) {
      // Both mediators' pairs point at the one unmediated run of the unit.
      const shared = column(
        files.dbPath,
        "SELECT unmediated_run_id FROM matched_pairs WHERE mediated_run_id IN (?, ?)",
        unit.mediated[0].runId,
        unit.mediated[1].runId,
      );
      expect(shared).toEqual([unit.unmediatedRunId, unit.unmediatedRunId]);
    }
    for (const runId of runIds) {
      expect(
        count(
          files.dbPath,
          "SELECT count(*) AS n FROM evaluations WHERE id = ?",
          newEvaluationId(runId, "topic-localized", JUDGE_MODEL),
        ),
      ).toBe(1);
    }
    // Mediator metrics belong to mediated runs only; an unmediated run enters its pairs' rows.
    for (const runId of units.flatMap((u) => u.mediated.map((m) => m.runId))) {
      expect(
        count(
          files.dbPath,
          "SELECT count(*) AS n FROM metric_values WHERE subject_kind = 'run' AND subject_id = ?",
          runId,
        ),
      ).toBeGreaterThan(0);
    }
    expect(
      count(
        files.dbPath,
        "SELECT count(*) AS n FROM metric_values WHERE subject_kind = 'run' AND subject_id IN (SELECT id FROM runs WHERE mediated = 0)",
      ),
    ).toBe(0);
    for (const pairId of units.flatMap((u) => u.mediated.map((m) => m.pairId))) {
      expect(
        count(
          files.dbPath,
          "SELECT count(*) AS n FROM metric_values WHERE subject_kind = 'pair' AND subject_id = ?",
          pairId,
        ),
      ).toBeGreaterThan(0);
    }
    expect(count(files.dbPath, "SELECT count(*) AS n FROM benchmark_plans WHERE hash = ?", loaded.hash)).toBe(1);
    expect(await readSetting(db, SETTING_KEYS.metricParams)).toEqual(JSON.parse(JSON.stringify(parseMetricParams({}))));

    // The social mediator: its own templates in the requests, its mode and prompt version on the run.
    const bodies = mock.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => JSON.stringify(r.body));
    const social = bodies.filter((b) => b.includes("four kinds of breakdown"));
    expect(social.length).toBeGreaterThan(0);
    const socialRun = units[0].mediated[1].runId;
    const genericRun = units[0].mediated[0].runId;
    const configOf = (id: string) =>
      JSON.parse(column(files.dbPath, "SELECT config FROM runs WHERE id = ?", id)[0]) as Record<string, unknown>;
    expect(configOf(socialRun).mediator_mode).toBe("social");
    expect(configOf(genericRun).mediator_mode).toBe("generic");
    expect(configOf(socialRun).prompt_version).not.toBe(configOf(genericRun).prompt_version);

    // A second pass finds everything stored and asks nothing.
    const before = mock.requests.length;
    const again = await runGrid({ db, llm: createLlm({ db, config }), config, loaded });
    expect(again.runs).toEqual({ stored: 0, skipped: units.length * 3 });
    expect(again.evaluations).toEqual({ stored: 0, skipped: units.length * 3 });
    expect(mock.requests.length).toBe(before);
  });
});

/**
 * A metric row computed by an earlier definition (issue 28), or with other parameters than the
 * plan's, is not "stored" for the benchmark runner: a pass over a finished plan computes it again,
 * and asks the endpoint for nothing. Real SQLite file, the stand-in over HTTP.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { definitionVersion } from "../../../app/domain/metrics/registry.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { loadPlanFile } from "../../../app/server/benchmark/plan-file.server.ts";
import { runGrid } from "../../../app/server/benchmark/run-grid.server.ts";
import {
  metricValuesOf,
  staleMetricValuesOf,
  upsertMetricValue,
} from "../../../app/server/models/metric-value.server.ts";
import * as schema from "../../../db/schema.ts";
import { MEDIATOR_MODEL, PARTY_MODEL, JUDGE_MODEL, gridFixture } from "./runner-helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** One unit: an unmediated run and one mediated run with its pair. */
const TINY_PLAN = {
  name: "one unit",
  scenarios: { ids: ["t-0"] },
  conditions: { keys: ["general"] },
  mediators: [{ name: "Generic", model: MEDIATOR_MODEL }],
  simulator: { model: PARTY_MODEL },
  evaluator: { model: JUDGE_MODEL },
  runs: 1,
  budget: 4,
};

describe("benchmark run over stale metric rows", { timeout: 60_000 }, () => {
  it("computes a row of an earlier definition or of other parameters again, and leaves current rows alone", async () => {
    const { dir, mock, files, db, config, loaded, llm } = await gridFixture(TINY_PLAN, (c) => cleanups.push(c));
    const first = await runGrid({ db, llm: llm(), config, loaded });
    expect(first.failures).toEqual([]);

    const raw = new Database(files.dbPath);
    cleanups.push(() => raw.close());
    const [{ runId }] = raw
      .prepare("SELECT subject_id AS runId FROM metric_values WHERE subject_kind = 'run' AND metric = 'IT'")
      .all() as { runId: string }[];
    const itRow = () =>
      raw
        .prepare(
          "SELECT value, definition_version AS version FROM metric_values WHERE subject_id = ? AND metric = 'IT'",
        )
        .get(runId) as { value: number | null; version: number };
    const current = itRow();
    expect(current.version).toBe(definitionVersion("IT"));

    // Current rows: a second pass recomputes nothing.
    const requests = mock.requests.length;
    expect((await runGrid({ db, llm: createLlm({ db, config }), config, loaded })).metricRuns).toBe(0);

    // The row as an earlier definition would have left it: another version, another value.
    raw
      .prepare("UPDATE metric_values SET definition_version = 0, value = 99 WHERE subject_id = ? AND metric = 'IT'")
      .run(runId);
    expect((await staleMetricValuesOf(db, "run", runId)).map((r) => r.metric)).toEqual(["IT"]);
    expect((await metricValuesOf(db, "run", runId)).some((r) => r.metric === "IT")).toBe(false);

    const third = await runGrid({ db, llm: createLlm({ db, config }), config, loaded });
    expect(third.metricRuns).toBe(1);
    expect(itRow()).toEqual(current);
    expect(await staleMetricValuesOf(db, "run", runId)).toEqual([]);
    expect(mock.requests.length).toBe(requests);

    // The same plan with another δ: its stored rows were computed with δ = 0.05, so it measures again.
    const changedPath = join(dir, "plan-delta.json");
    writeFileSync(changedPath, JSON.stringify({ ...TINY_PLAN, params: { delta: 0.2 } }));
    const changed = await runGrid({ db, llm: createLlm({ db, config }), config, loaded: loadPlanFile(changedPath) });
    expect(changed.runs.stored).toBe(0);
    expect(changed.metricRuns).toBeGreaterThan(0);
    const params = raw
      .prepare("SELECT params FROM metric_values WHERE subject_id = ? AND metric = 'IT'")
      .get(runId) as { params: string };
    expect(JSON.parse(params.params)).toMatchObject({ delta: 0.2 });
    expect(mock.requests.length).toBe(requests);
  });

  it("does not take a row of the other metric definitions for one of other parameters", async () => {
    const { db, config, loaded, llm } = await gridFixture(TINY_PLAN, (c) => cleanups.push(c));
    expect((await runGrid({ db, llm: llm(), config, loaded })).failures).toEqual([]);
    // IT is a mediator metric: its row names the mediated run.
    const mediated = (await db.select().from(schema.metricValues)).find((r) => r.metric === "IT")!.subjectId;
    // A reference row beside the plan's (spec) rows, as `socrates metrics --definitions promediate-reference` stores.
    await upsertMetricValue(db, {
      subjectKind: "run",
      subjectId: mediated,
      evaluationId: `${mediated}:per-turn:other`,
      metric: "CC",
      value: 0.25,
      detail: {},
      params: { wMax: 10, definitions: "promediate-reference" },
      definitionVersion: definitionVersion("CC")!,
      computedAt: "2026-01-01T00:00:00Z",
    });
    const again = await runGrid({ db, llm: createLlm({ db, config }), config, loaded });
    expect(again.metricRuns).toBe(0);
    expect((await metricValuesOf(db, "run", mediated)).filter((r) => r.metric === "CC")).toHaveLength(1);
  });
});

/**
 * The report part "ProMediate's metrics two ways" on a real database: the report fixture's grid,
 * with CC, TLE, RL, ME and MI rows stored as `socrates metrics` stores them for each definitions
 * (same subject, evaluation and metric; the definitions keep them apart). Each run is read under
 * the main evaluator's per-turn evaluation and MI judge; rows of other parameters are not read.
 */
import { describe, expect, it } from "vitest";
import { DEFINITION_METRICS, mainSubjects, type ReportInput } from "../../../../app/domain/benchmark/report/input.ts";
import { DEFAULT_BOOTSTRAP } from "../../../../app/domain/benchmark/report/cells.ts";
import { miEvaluationId } from "../../../../app/domain/evaluation-ids.ts";
import { paramsOf, parseMetricParams } from "../../../../app/domain/metrics/metric-params.ts";
import { metricById } from "../../../../app/domain/metrics/registry.ts";
import { buildDefinitionsTable, DEFINITION_COLUMNS } from "../../../../app/report-parts/promediate-definitions.ts";
import { planGrid } from "../../../../app/server/benchmark/plan-file.server.ts";
import { loadReportData } from "../../../../app/server/benchmark/report-data.server.ts";
import type { Db } from "../../../../app/server/db.server.ts";
import { upsertMetricValue } from "../../../../app/server/models/metric-value.server.ts";
import { currentEvaluationIds } from "../../../../app/server/pipeline/evaluation-identity.server.ts";
import { databasePerTest } from "../../pipeline/test-db.ts";
import { ALT_JUDGE, fixturePlan, MAIN_JUDGE, seedGrid } from "./fixture.ts";
import { reportCell } from "./recompute.ts";

const freshDb = databasePerTest();
const loaded = fixturePlan();

async function store(db: Db, runId: string, metric: string, evaluationId: string, value: number, params: object) {
  await upsertMetricValue(db, {
    subjectKind: "run",
    subjectId: runId,
    evaluationId,
    metric,
    value,
    detail: {},
    params: paramsOf(metricById(metric)!, parseMetricParams(params)),
    definitionVersion: metricById(metric)!.version ?? 1,
    computedAt: "2026-01-01T00:00:00Z",
  });
}

/** Both definitions' rows of one run under `backbone`: spec = base + k/10, reference = −(base + k/10). */
async function storeBoth(db: Db, runId: string, backbone: string, base: number, extra: object = {}) {
  const perTurn = (await currentEvaluationIds(db, [runId], "per-turn", backbone)).get(runId)!;
  for (const [k, metric] of DEFINITION_METRICS.entries()) {
    const id = metric === "MI" ? miEvaluationId(runId, backbone) : perTurn;
    await store(db, runId, metric, id, base + k / 10, { ...extra, definitions: "spec" });
    await store(db, runId, metric, id, -(base + k / 10), { ...extra, definitions: "promediate-reference" });
  }
}

describe("the report's side-by-side part of both metric definitions", () => {
  it("reads each run's rows of each definitions and builds spec / reference columns per metric", async () => {
    const db = await freshDb();
    await seedGrid(db, loaded);
    const grid = await planGrid(db, loaded.plan);
    const units = grid.units.filter((u) => u.part === "main" && u.conditionKey === "general");
    const alpha = units.map((u) => u.mediated.find((m) => m.mediator === "alpha")!.runId);
    const beta = units.map((u) => u.mediated.find((m) => m.mediator === "beta")!.runId);
    for (const [i, runId] of alpha.entries()) await storeBoth(db, runId, MAIN_JUDGE, i);
    // Beta's first run: the main judge's rows, beside another judge's and rows of other parameters (not read).
    await storeBoth(db, beta[0], MAIN_JUDGE, 0.5);
    await storeBoth(db, beta[0], ALT_JUDGE, 9);
    const perTurn = (await currentEvaluationIds(db, [beta[0]], "per-turn", "judge-third")).get(beta[0])!;
    await store(db, beta[0], "CC", perTurn, 7, { wMax: 4, definitions: "promediate-reference" });
    // Beta's second run: only another judge's rows, read for want of the main judge's.
    await storeBoth(db, beta[1], ALT_JUDGE, 1.5);

    const data = await loadReportData(db, loaded, grid);
    const subject = (runId: string) => data.input.subjects.find((s) => s.runId === runId)!;
    expect(subject(alpha[1]).definitions).toEqual({
      CC: { spec: 1, reference: -1 },
      TLE: { spec: 1.1, reference: -1.1 },
      RL: { spec: 1.2, reference: -1.2 },
      ME: { spec: 1.3, reference: -1.3 },
      MI: { spec: 1.4, reference: -1.4 },
    });
    expect(subject(beta[0]).definitions!.CC).toEqual({ spec: 0.5, reference: -0.5 });
    expect(subject(beta[1]).definitions!.MI).toEqual({ spec: 1.9, reference: -1.9 });
    const gamma = units[0].mediated.find((m) => m.mediator === "gamma")!.runId;
    expect(subject(gamma).definitions).toBeUndefined();

    const table = buildDefinitionsTable({ ...data.input, bootstrap: { ...DEFAULT_BOOTSTRAP, draws: 20 }, bins: 4 })!;
    expect(table.columns).toEqual(DEFINITION_COLUMNS);
    expect(table.columns.map((c) => `${c.group}/${c.label}`)).toEqual(
      DEFINITION_METRICS.flatMap((m) => [`${m}/spec`, `${m}/ProMediate ref.`]),
    );
    // alpha: runs i = 0..n−1, CC spec = i → mean (n − 1)/2; ME reference = −(i + 0.3).
    const n = alpha.length;
    const runsOf = (mediator: string) => mainSubjects(data.input as ReportInput).filter((s) => s.mediator === mediator);
    // The mediator's main-grid runs of other conditions have no rows: missing, never imputed.
    expect(reportCell(table, "alpha", "CC:spec")).toMatchObject({
      mean: (n - 1) / 2,
      n,
      missing: runsOf("alpha").length - n,
    });
    expect(reportCell(table, "alpha", "ME:reference").mean).toBeCloseTo(-((n - 1) / 2 + 0.3), 12);
    // beta: two runs with rows (0.5 and 1.5), the others without: counted missing.
    expect(reportCell(table, "beta", "TLE:spec")).toMatchObject({ n: 2, missing: runsOf("beta").length - 2 });
    expect(reportCell(table, "beta", "TLE:spec").mean).toBeCloseTo(1.1, 12);
    expect(reportCell(table, "gamma", "CC:reference")).toMatchObject({ mean: null, n: 0 });
  });

  it("is left out when no run of the main grid has such rows", async () => {
    const db = await freshDb();
    await seedGrid(db, loaded);
    const data = await loadReportData(db, loaded, await planGrid(db, loaded.plan));
    expect(buildDefinitionsTable({ ...data.input, bootstrap: DEFAULT_BOOTSTRAP, bins: 4 })).toBeNull();
  });
});

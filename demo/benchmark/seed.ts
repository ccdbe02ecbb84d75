/**
 * The demo benchmark: the plan in demo-plan.json and its grid's runs, pairs and evaluations in
 * demo-benchmark.json (recorded from the stand-in by demo/authoring/record-benchmark.ts).
 * Kept out of demo/'s top level so seedDemo does not import it: the demo annotation studies
 * sample the hand-written runs, so serve.ts seeds the benchmark after them.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadPlanFile, planGrid, type LoadedPlan } from "../../app/server/benchmark/plan-file.server.ts";
import { importBundleFiles, type ImportSummary } from "../../app/server/bundle-store.server.ts";
import type { Db } from "../../app/server/db.server.ts";
import { parseMetricParams } from "../../app/domain/metrics/metric-params.ts";
import { findBenchmarkPlan, touchBenchmarkPlan } from "../../app/server/models/benchmark-plan.server.ts";
import { metricValuesOf } from "../../app/server/models/metric-value.server.ts";
import { computeMetrics } from "../../app/server/pipeline/metrics-runner.server.ts";
import { DEMO_DIR } from "../seed.ts";

export const DEMO_PLAN_SOURCE = "demo/benchmark/demo-plan.json";
export const DEMO_BENCHMARK_BUNDLE = join(DEMO_DIR, "benchmark/demo-benchmark.json");

/** The demo plan, its source named as the repository path (not this machine's). */
export function loadDemoPlan(): LoadedPlan {
  return { ...loadPlanFile(join(DEMO_DIR, "benchmark/demo-plan.json")), source: DEMO_PLAN_SOURCE };
}

export interface DemoBenchmarkSummary {
  plan: LoadedPlan;
  imported: ImportSummary;
  /** Metric rows computed by this call (0 when every run and pair already had its rows). */
  metricRows: number;
}

/**
 * Imports the demo benchmark's records, records its plan and computes the metrics of its runs
 * (mediated and unmediated: the emotion metrics EF, EV and EC are for both) and pairs with the
 * plan's params, as `benchmark run` would. A no-op on a seeded database: present records are
 * kept, the plan's row is not touched again, and only a run (or its pair) without any stored
 * metric row is computed — recomputing would rewrite rows a user may have recomputed with other
 * parameters since.
 */
export async function seedDemoBenchmark(db: Db): Promise<DemoBenchmarkSummary> {
  const imported = await importBundleFiles(db, [
    { file: DEMO_BENCHMARK_BUNDLE, text: readFileSync(DEMO_BENCHMARK_BUNDLE, "utf8") },
  ]);
  const plan = loadDemoPlan();
  if (!(await findBenchmarkPlan(db, plan.hash)))
    await touchBenchmarkPlan(db, { hash: plan.hash, name: plan.plan.name, plan: plan.plan, source: plan.source });
  const params = parseMetricParams(plan.plan.params);
  let metricRows = 0;
  for (const unit of (await planGrid(db, plan.plan)).units) {
    const subjects = [
      { runId: unit.unmediatedRunId, pairId: null },
      ...unit.mediated.map((m) => ({ runId: m.runId, pairId: m.pairId })),
    ];
    for (const { runId, pairId } of subjects) {
      const stored =
        (await metricValuesOf(db, "run", runId)).length > 0 &&
        (pairId === null || (await metricValuesOf(db, "pair", pairId)).length > 0);
      if (!stored) metricRows += (await computeMetrics(db, { runId, params })).rows.length;
    }
  }
  return { plan, imported, metricRows };
}

/**
 * A small benchmark grid in a real database: the demo scenarios of two domains with three of
 * their conditions, and for every grid run a copy of the demo's run of that scenario whose
 * judge scores are shifted by a seeded amount per run and judge — so runs differ, IT is
 * sometimes undefined, and the metric rows come from the real metrics runner.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { BundleInput, Evaluation, Run } from "../../../../app/domain/bundle.ts";
import { type BenchmarkPlan, parseBenchmarkPlan } from "../../../../app/domain/benchmark/plan.ts";
import { evaluationId } from "../../../../app/domain/evaluation-ids.ts";
import { createRng, randomInt } from "../../../../app/domain/stats/rng.ts";
import { planGrid, planHash, type LoadedPlan } from "../../../../app/server/benchmark/plan-file.server.ts";
import { importBundleFiles } from "../../../../app/server/bundle-store.server.ts";
import { openDatabase, type Db } from "../../../../app/server/db.server.ts";
import { closeDatabase } from "../../../../app/server/db-transaction.server.ts";
import { touchBenchmarkPlan } from "../../../../app/server/models/benchmark-plan.server.ts";
import { computeMetrics } from "../../../../app/server/pipeline/metrics-runner.server.ts";

const DEMO = ["transactional", "healthcare"] as const;
export const SCENARIOS = DEMO.map((d) => `demo-${d}-1`);
const CONDITION_KEYS = ["general", "strategy:competing", "emotion:CR"];

export const MAIN_JUDGE = "judge-main";
export const ALT_JUDGE = "judge-alt";

export function fixturePlan(overrides: Record<string, unknown> = {}): LoadedPlan {
  const plan: BenchmarkPlan = parseBenchmarkPlan(
    {
      name: "report-test",
      scenarios: { ids: SCENARIOS },
      conditions: { keys: CONDITION_KEYS },
      mediators: [
        { name: "alpha", model: "med-a" },
        { name: "beta", model: "med-b", mode: "social" },
        { name: "gamma", model: "med-c" },
      ],
      simulator: { model: "sim-main" },
      evaluator: { model: MAIN_JUDGE },
      runs: 2,
      ablations: { evaluators: [{ model: ALT_JUDGE }], repeats: { runs: 3 } },
      ...overrides,
    },
    "test plan",
  );
  return { plan, hash: planHash(plan), source: "test plan" };
}

const demoBundle = (domain: string) => JSON.parse(readFileSync(`demo/demo-${domain}.json`, "utf8")) as BundleInput;

/** The demo's evaluation with each score shifted by −2..+2 (seeded), clamped to 1–5. */
function shiftedEvaluation(template: Evaluation, runId: string, backbone: string, rng: () => number): Evaluation {
  if (template.method !== "topic-localized") throw new Error("expected a topic-localized template");
  const shift = randomInt(rng, 5) - 2;
  const output = Object.fromEntries(
    Object.entries(template.output).map(([topic, pass]) => [
      topic,
      {
        ...pass,
        agreement_score: pass.agreement_score.map((e) => ({
          ...e,
          score: Math.min(5, Math.max(1, e.score + shift + randomInt(rng, 3) - 1)),
        })),
      },
    ]),
  );
  return {
    ...template,
    id: evaluationId(runId, "topic-localized", backbone),
    run_id: runId,
    backbone,
    output,
    errors: [],
  };
}

/** Imports the catalogue and the grid's runs (less `skip`), judged by both judges, then computes the metrics. */
export async function seedGrid(db: Db, loaded: LoadedPlan, skip: ReadonlySet<string> = new Set()): Promise<void> {
  const conditions = (JSON.parse(readFileSync("demo/demo-conditions.json", "utf8")) as BundleInput).conditions!.filter(
    (c) => SCENARIOS.includes(c.scenario_id) && CONDITION_KEYS.includes(`${c.axis}:${c.variant}`),
  );
  const catalogue = DEMO.map((d) => ({ ...demoBundle(d), runs: [], evaluations: [], matched_pairs: [] }));
  await importBundleFiles(
    db,
    [...catalogue, { format: "socrates-bundle", version: 1, conditions }].map((b, i) => ({
      file: `catalogue-${i}.json`,
      text: JSON.stringify(b),
    })),
  );

  const rng = createRng(7);
  const runs: Run[] = [];
  const evaluations: Evaluation[] = [];
  const pairs: BundleInput["matched_pairs"] = [];
  for (const unit of (await planGrid(db, loaded.plan)).units) {
    const demo = demoBundle(unit.domain);
    const template = (mediated: boolean) => demo.runs!.find((r) => r.mediated === mediated)! as Run;
    const judged = (mediated: boolean) =>
      demo.evaluations!.find(
        (e) => e.method === "topic-localized" && e.run_id === template(mediated).id,
      )! as Evaluation;
    const add = (runId: string, mediated: boolean, mediator: string | null) => {
      runs.push({
        ...template(mediated),
        id: runId,
        condition_id: unit.conditionId,
        mediator_backbone: mediator,
        simulator_backbone: unit.simulator.model,
      });
      for (const judge of [MAIN_JUDGE, ALT_JUDGE])
        evaluations.push(shiftedEvaluation(judged(mediated), runId, judge, rng));
    };
    add(unit.unmediatedRunId, false, null);
    for (const m of unit.mediated) {
      if (skip.has(m.runId)) continue;
      add(m.runId, true, m.mediator);
      pairs.push({
        id: m.pairId,
        condition_id: unit.conditionId,
        mediated_run_id: m.runId,
        unmediated_run_id: unit.unmediatedRunId,
      });
    }
  }
  await importBundleFiles(db, [
    {
      file: "grid.json",
      text: JSON.stringify({ format: "socrates-bundle", version: 1, runs, evaluations, matched_pairs: pairs }),
    },
  ]);
  await computeMetrics(db, { now: new Date("2026-01-01T00:00:00Z") });
}

/** A database file in `dir`: the plan's seeded grid, and the plan as `benchmark run` records it (`report --hash`). */
export async function seededPlanFile(dir: string, loaded: LoadedPlan): Promise<string> {
  const dbPath = join(dir, "bench.db");
  const db = await openDatabase(dbPath);
  await seedGrid(db, loaded);
  await touchBenchmarkPlan(db, {
    hash: loaded.hash,
    name: loaded.plan.name,
    plan: loaded.plan,
    source: "benchmark.json",
  });
  await closeDatabase(db);
  return dbPath;
}

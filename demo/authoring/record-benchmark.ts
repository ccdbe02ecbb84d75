/**
 * How the demo benchmark's runs were made (demo data, not model output).
 *
 * Runs the benchmark runner (`runGrid`, as `socrates benchmark run` does) over the demo plan
 * demo/benchmark/demo-plan.json against the offline stand-in endpoint (app/server/llm/stand-in, in
 * process: canned, deterministic replies, not a model) on a scratch copy of the demo database,
 * and writes the grid's runs, matched pairs and evaluations to
 * demo/benchmark/demo-benchmark.json. Deterministic: re-running writes the same bytes.
 *   npx tsx demo/authoring/record-benchmark.ts
 */
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { BUNDLE_FORMAT, BUNDLE_VERSION, type Bundle } from "../../app/domain/bundle.ts";
import { evaluationId } from "../../app/domain/evaluation-ids.ts";
import { planGrid } from "../../app/server/benchmark/plan-file.server.ts";
import { runGrid } from "../../app/server/benchmark/run-grid.server.ts";
import { exportBundle } from "../../app/server/bundle-store.server.ts";
import { createLlm } from "../../app/server/llm/client.server.ts";
import { parseLlmConfig } from "../../app/server/llm/config.server.ts";
import { standInResponder } from "../../app/llm-roles/stand-in.ts";
import { DEMO_BENCHMARK_BUNDLE, loadDemoPlan } from "../benchmark/seed.ts";
import { seedDemo } from "../seed.ts";
import { withScratchStandIn } from "./scratch.ts";

const DECISION_SECONDS = 0.05;

const DESCRIPTION =
  "Demo data written for SoCRATES Studio — fictional, not from the SoCRATES paper or any real case. The demo benchmark's runs, " +
  "matched pairs and topic-localized evaluations, recorded by demo/authoring/record-benchmark.ts: `runGrid` over " +
  "demo/benchmark/demo-plan.json against the offline stand-in endpoint (canned, deterministic replies, not a model). " +
  "The demo- backbone names are not real models, and the scores mean nothing about mediators. Every mediator decision is " +
  `recorded as taking ${DECISION_SECONDS} s: the stand-in answers in about a millisecond, and its jitter would change the bytes.`;

/** Every role on the one stand-in endpoint; the plan names the models. */
function standInConfig(url: string) {
  return parseLlmConfig(
    {
      endpoints: { standin: { baseUrl: url, concurrency: 4 } },
      roles: {
        party: { endpoint: "standin", model: "demo-sim-alpha", temperature: 0.7 },
        mediator: { endpoint: "standin", model: "demo-mediator-a", temperature: 0.2 },
        evaluator: { endpoint: "standin", model: "demo-judge", temperature: 0 },
      },
    },
    "demo recording",
  );
}

/** The grid's records of an exported database, without timestamps (re-recording gives the same bytes). */
function gridBundle(all: Bundle, runIds: Set<string>, pairIds: Set<string>): Bundle {
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    description: DESCRIPTION,
    scenarios: [],
    conditions: [],
    runs: all.runs
      .filter((r) => runIds.has(r.id))
      .map(({ created_at: _dropped, ...run }) => ({
        ...run,
        mediator_decisions: run.mediator_decisions?.map((d) => ({ ...d, seconds: DECISION_SECONDS })),
      })),
    matched_pairs: all.matched_pairs.filter((p) => pairIds.has(p.id)),
    ab_pairs: [],
    evaluations: all.evaluations
      .filter((e) => runIds.has(e.run_id))
      .map(versionFree)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
  };
}

/**
 * An evaluation as recorded before prompt versions (bare id, no prompt_version): the stand-in's
 * canned replies do not depend on the judge prompt's wording, so the demo's evaluations hold for
 * any prompt version and a later prompt edit does not leave the seeded demo without them.
 */
function versionFree({
  created_at: _time,
  prompt_version: _version,
  ...evaluation
}: Bundle["evaluations"][number]): Bundle["evaluations"][number] {
  return { ...evaluation, id: evaluationId(evaluation.run_id, evaluation.method, evaluation.backbone) };
}

/** Plays, judges and exports the demo plan's grid in a scratch database. */
export async function recordDemoBenchmark(): Promise<Bundle> {
  return withScratchStandIn("socrates-benchmark-demo-", standInResponder(), async (db, url) => {
    await seedDemo(db);
    const loaded = loadDemoPlan();
    const config = standInConfig(url);
    // One unit at a time: the cache and the stored order do not depend on scheduling.
    const summary = await runGrid({
      db,
      llm: createLlm({ db, config, sleep: async () => {} }),
      config,
      loaded,
      concurrency: 1,
    });
    if (summary.failures.length > 0)
      throw new Error(`demo benchmark incomplete: ${summary.failures.map((f) => `${f.id}: ${f.reason}`).join("; ")}`);
    const units = (await planGrid(db, loaded.plan)).units;
    const runIds = new Set(units.flatMap((u) => [u.unmediatedRunId, ...u.mediated.map((m) => m.runId)]));
    const pairIds = new Set(units.flatMap((u) => u.mediated.map((m) => m.pairId)));
    return gridBundle(await exportBundle(db), runIds, pairIds);
  });
}

export function demoBenchmarkText(bundle: Bundle): string {
  const { scenarios: _s, conditions: _c, ab_pairs: _a, ...kept } = bundle;
  return `${JSON.stringify(kept, null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const bundle = await recordDemoBenchmark();
  writeFileSync(DEMO_BENCHMARK_BUNDLE, demoBenchmarkText(bundle));
  console.log(
    `wrote ${DEMO_BENCHMARK_BUNDLE}: ${bundle.runs.length} runs, ${bundle.matched_pairs.length} pairs, ${bundle.evaluations.length} evaluations`,
  );
}

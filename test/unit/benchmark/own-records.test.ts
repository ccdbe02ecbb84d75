/**
 * The runner stores what it makes (runs, pairs, topic and emotion evaluations; `socrates evaluate`
 * its per-turn ones) straight through the repositories, and gives its just-simulated runs to their
 * judges and metrics from memory. Over real HTTP against the stand-in and real SQLite files: a grid
 * run in process, exported and imported into a fresh database through the importer, holds the same
 * rows there, and the metrics computed there from the database equal the runner's.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { exportBundle, importBundleFiles } from "../../../app/server/bundle-store.server.ts";
import { openDatabase, type Db } from "../../../app/server/db.server.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { runGrid } from "../../../app/server/benchmark/run-grid.server.ts";
import { evaluateRuns } from "../../../app/server/pipeline/evaluate-runs.server.ts";
import { computeMetrics } from "../../../app/server/pipeline/metrics-runner.server.ts";
import { gridFixture, JUDGE_MODEL, MEDIATOR_MODEL, PARTY_MODEL } from "./runner-helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Two conditions × (two mediators + unmediated), judged by topic and, without self-report, for emotion. */
const PLAN = {
  name: "own records grid",
  scenarios: { ids: ["t-0"] },
  conditions: { keys: ["general", "emotion:CR"] },
  mediators: [
    { name: "Generic", model: MEDIATOR_MODEL },
    { name: "Social", model: MEDIATOR_MODEL, mode: "social" },
  ],
  simulator: { model: PARTY_MODEL },
  evaluator: { model: JUDGE_MODEL },
  runs: 1,
  budget: 6,
  emotion: { selfReport: false, judge: { model: "standin-emotion" } },
};

/** Tables whose id is a row counter, which follows the order rows were inserted in. */
const COUNTED_IDS = new Set(["snippets", "metric_values"]);

/** A table's rows, every column but the row's own insertion time and counter id, in a stable order. */
function rows(db: Db, table: string): string[] {
  const all = db.$client.prepare(`SELECT * FROM ${table}`).all() as Record<string, unknown>[];
  const skipped = new Set(["created_at", "computed_at", ...(COUNTED_IDS.has(table) ? ["id"] : [])]);
  return all.map((r) => JSON.stringify(Object.entries(r).filter(([k]) => !skipped.has(k)))).sort();
}

const RECORD_TABLES = ["runs", "turns", "snippets", "matched_pairs", "evaluations", "evaluation_scores"];

/** The importer's rows for db's records: exported, then imported into a fresh database. */
async function reimported(db: Db, path: string): Promise<Db> {
  const fresh = await openDatabase(path);
  cleanups.push(() => fresh.$client.close());
  await importBundleFiles(fresh, [{ file: "export.json", text: JSON.stringify(await exportBundle(db)) }]);
  return fresh;
}

describe("records the pipeline makes", { timeout: 90_000 }, () => {
  it("are stored with the rows the importer stores for them, and measured as the database measures them", async () => {
    const { dir, db, config, loaded, llm } = await gridFixture(PLAN, (c) => cleanups.push(c));
    const summary = await runGrid({ db, llm: llm(), config, loaded });
    expect(summary.failures).toEqual([]);
    expect(summary.runs.stored).toBe(6);
    expect(summary.pairsStored).toBe(4);
    expect(summary.evaluations.stored).toBe(12); // a topic and an emotion evaluation per run
    expect(summary.metricRuns).toBe(6);

    const fresh = await reimported(db, join(dir, "reimported.db"));
    for (const table of RECORD_TABLES) {
      const direct = rows(db, table);
      expect(direct.length, table).toBeGreaterThan(0);
      expect(rows(fresh, table), table).toEqual(direct);
    }
    // Metrics read back from the imported database equal those the runner computed from memory.
    await computeMetrics(fresh, { params: loaded.plan.params });
    const measured = rows(db, "metric_values");
    expect(measured.length).toBeGreaterThan(0);
    expect(rows(fresh, "metric_values")).toEqual(measured);

    // `socrates evaluate`'s per-turn baseline, stored the same way.
    const judge = { ...config, roles: { ...config.roles, "baseline-judge": config.roles.evaluator! } };
    const mediated = db.$client.prepare("SELECT id FROM runs WHERE mediated = 1 ORDER BY id LIMIT 1").get();
    const runIds = [(mediated as { id: string }).id];
    const perTurn = await evaluateRuns(db, { llm: createLlm({ db, config: judge }), method: "per-turn", runIds });
    expect(perTurn.runs[0].status).toBe("stored");
    const again = await reimported(db, join(dir, "reimported-again.db"));
    for (const table of ["evaluations", "evaluation_scores"]) {
      expect(rows(again, table), table).toEqual(rows(db, table));
    }
    expect(rows(db, "evaluations")).toHaveLength(13);
  });
});

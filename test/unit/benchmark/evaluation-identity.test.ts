/**
 * The benchmark runner finds a run's judge evaluations through the evaluation identity (judge
 * model and prompt version), over a real SQLite file and the stand-in over HTTP: a second pass with
 * the same judge prompt plans no judging and asks nothing; evaluations recorded under an earlier
 * prompt are judged again, and the report reads the new ones.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Evaluation } from "../../../app/domain/bundle.ts";
import { evaluationId } from "../../../app/domain/evaluation-ids.ts";
import { buildBenchmarkReport } from "../../../app/server/benchmark/report.server.ts";
import { prepareGridRun, runGrid } from "../../../app/server/benchmark/run-grid.server.ts";
import { exportBundle, importBundleRecords } from "../../../app/server/bundle-store.server.ts";
import { newEvaluationId } from "../../../app/server/pipeline/evaluation-identity.server.ts";
import { column, JUDGE_MODEL, MEDIATOR_MODEL, PARTY_MODEL, gridFixture } from "./runner-helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const PLAN = {
  name: "judge identity grid",
  scenarios: { ids: ["t-0"] },
  conditions: { keys: ["general"] },
  mediators: [{ name: "Generic", model: MEDIATOR_MODEL }],
  simulator: { model: PARTY_MODEL },
  evaluator: { model: JUDGE_MODEL },
  runs: 1,
  budget: 6,
};
const EARLIER = "0123456789ab";

describe("benchmark run and the judge's prompt version", { timeout: 60_000 }, () => {
  it("reuses the same version's evaluations with no request, and judges again those of an earlier prompt", async () => {
    const { mock, files, db, config, loaded, llm } = await gridFixture(PLAN, (c) => cleanups.push(c));
    const judgeRequests = () =>
      mock.requests.filter(
        (r) => r.path === "/v1/chat/completions" && (r.body as { model?: string }).model === JUDGE_MODEL,
      ).length;

    const first = await runGrid({ db, llm: llm(), config, loaded });
    expect(first.failures).toEqual([]);
    expect(first.evaluations).toEqual({ stored: 2, skipped: 0 });
    const runIds = (await prepareGridRun({ db, config, loaded })).units.flatMap((u) => u.runs.map((r) => r.runId));
    const current = runIds.map((r) => newEvaluationId(r, "topic-localized", JUDGE_MODEL)).sort();
    expect(column(files.dbPath, "SELECT id FROM evaluations ORDER BY id")).toEqual(current);
    const judged = judgeRequests();
    expect(judged).toBeGreaterThan(0);

    // Same prompt version: nothing pending, nothing asked.
    expect(
      (await prepareGridRun({ db, config, loaded })).units.flatMap((u) =>
        u.runs.map((r) => r.pendingEvaluators.length),
      ),
    ).toEqual([0, 0]);
    expect((await runGrid({ db, llm: llm(), config, loaded })).evaluations).toEqual({ stored: 0, skipped: 2 });
    expect(judgeRequests()).toBe(judged);

    // The evaluations as if an earlier judge prompt had made them; that prompt's cached replies cannot answer the
    // current one.
    const stored = (await exportBundle(db)).evaluations;
    db.$client.prepare("DELETE FROM evaluations").run();
    db.$client.prepare("DELETE FROM llm_calls WHERE role = 'evaluator'").run();
    const earlier = stored.map(
      (e): Evaluation => ({ ...e, id: evaluationId(e.run_id, e.method, e.backbone, EARLIER), prompt_version: EARLIER }),
    );
    await importBundleRecords(db, "earlier prompt", { evaluations: earlier });
    expect(
      (await prepareGridRun({ db, config, loaded })).units.flatMap((u) =>
        u.runs.map((r) => r.pendingEvaluators.map((e) => e.model)),
      ),
    ).toEqual([[JUDGE_MODEL], [JUDGE_MODEL]]);
    const again = await runGrid({ db, llm: llm(), config, loaded });
    expect(again.evaluations).toEqual({ stored: 2, skipped: 0 });
    expect(judgeRequests()).toBe(2 * judged);
    expect(column(files.dbPath, "SELECT id FROM evaluations ORDER BY id")).toEqual(
      [...current, ...earlier.map((e) => e.id)].sort(),
    );

    // The report reads the metrics of the current evaluations.
    const report = await buildBenchmarkReport(db, loaded);
    expect(report.coverage.evaluatedRuns).toBe(1);
    const under = column(
      files.dbPath,
      "SELECT DISTINCT evaluation_id FROM metric_values WHERE subject_kind = 'run' AND evaluation_id != ''",
    );
    expect(under.length).toBeGreaterThan(0);
    expect(under.filter((id) => !current.includes(id))).toEqual([]); // none under an earlier prompt's evaluation
  });
});

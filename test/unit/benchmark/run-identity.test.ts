/**
 * A benchmark plan's runs are found by their settings (app/domain/simulation/run-identity.ts),
 * over a real SQLite file and the stand-in over HTTP: the same plan at another budget makes new
 * runs and its report reads them (never the other budget's), and the same plan again asks the
 * endpoint nothing.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Db } from "../../../app/server/db.server.ts";
import { countsByPart } from "../../../app/server/benchmark/grid-work.server.ts";
import { loadPlanFile, planGrid, type LoadedPlan } from "../../../app/server/benchmark/plan-file.server.ts";
import { loadReportData } from "../../../app/server/benchmark/report-data.server.ts";
import { buildBenchmarkReport } from "../../../app/server/benchmark/report.server.ts";
import { prepareGridRun, runGrid } from "../../../app/server/benchmark/run-grid.server.ts";
import { JUDGE_MODEL, MEDIATOR_MODEL, PARTY_MODEL, gridFixture } from "./runner-helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const PLAN_AT_12 = {
  name: "identity",
  scenarios: { ids: ["t-0"] },
  conditions: { keys: ["general", "emotion:CR"] },
  mediators: [{ name: "Generic", model: MEDIATOR_MODEL }],
  simulator: { model: PARTY_MODEL },
  evaluator: { model: JUDGE_MODEL },
  runs: 1,
  budget: 12,
};

/** Each run the report of `loaded` reads: the budget it was simulated with, how it ended, its party turns. */
async function reportedRuns(
  db: Db,
  loaded: LoadedPlan,
): Promise<{ budget: number; outcome: string; partyTurns: number }[]> {
  const data = await loadReportData(db, loaded, await planGrid(db, loaded.plan));
  const ids = [...data.input.subjects.map((s) => s.runId), ...data.input.unmediated.map((u) => u.runId)];
  return ids.map((id) => {
    const row = db.$client
      .prepare("SELECT config, outcome, party_turns AS partyTurns FROM runs WHERE id = ?")
      .get(id) as { config: string; outcome: string; partyTurns: number };
    return {
      budget: (JSON.parse(row.config) as { turn_budget: number }).turn_budget,
      outcome: row.outcome,
      partyTurns: row.partyTurns,
    };
  });
}

const planFile = (dir: string, budget: number): LoadedPlan => {
  const path = join(dir, `plan-${budget}.json`);
  writeFileSync(path, JSON.stringify({ ...PLAN_AT_12, budget }));
  return loadPlanFile(path);
};

describe("benchmark plans find their runs by settings", { timeout: 90_000 }, () => {
  it("a plan at budget 12, then at 20, makes new runs; each report reads its own budget's runs; a repeat asks nothing", async () => {
    const { dir, mock, db, config, loaded: at12, llm } = await gridFixture(PLAN_AT_12, (c) => cleanups.push(c));
    const first = await runGrid({ db, llm: llm(), config, loaded: at12 });
    expect(first.failures).toEqual([]);
    expect(first.runs).toEqual({ stored: 4, skipped: 0 });

    // A copy of the plan with budget 20: nothing of the 12-turn grid counts as stored.
    const at20 = planFile(dir, 20);
    expect(countsByPart((await prepareGridRun({ db, config, loaded: at20 })).units).main).toMatchObject({
      runs: 4,
      runsStored: 0,
    });
    const before = mock.requests.length;
    const second = await runGrid({ db, llm: llm(), config, loaded: at20 });
    expect(second.failures).toEqual([]);
    expect(second.runs).toEqual({ stored: 4, skipped: 0 });
    // The stand-in's runs end (consensus or walk-away) before turn 12, and no prompt shows the
    // budget, so the new runs ask what the 12-turn runs asked: the LLM cache answers every call.
    expect(second.calls.total).toMatchObject({ calls: 0, requests: 0 });
    expect(second.calls.total.cached).toBeGreaterThan(0);
    expect(mock.requests.length).toBe(before);
    expect(db.$client.prepare("SELECT count(*) AS n FROM runs WHERE simulator_backbone = ?").get(PARTY_MODEL)).toEqual({
      n: 8,
    });

    // Each plan's report reads the runs of its own settings.
    expect((await reportedRuns(db, at20)).map((r) => r.budget)).toEqual([20, 20, 20, 20]);
    expect((await reportedRuns(db, at12)).map((r) => r.budget)).toEqual([12, 12, 12, 12]);
    const report = await buildBenchmarkReport(db, at20, { studies: false, bootstrap: { draws: 50 } });
    expect(report.coverage).toMatchObject({ plannedRuns: 4, storedRuns: 4, storedMediatedRuns: 2 });

    // The same plan again: every run, evaluation and pair is found; the endpoint hears nothing.
    const requests = mock.requests.length;
    const third = await runGrid({ db, llm: llm(), config, loaded: at20 });
    expect(third.runs).toEqual({ stored: 0, skipped: 4 });
    expect(third.evaluations.stored).toBe(0);
    expect(mock.requests.length).toBe(requests);

    // A budget the runs reach: new runs that end there, and the report of that plan shows them.
    const at4 = planFile(dir, 4);
    expect((await runGrid({ db, llm: llm(), config, loaded: at4 })).runs).toEqual({ stored: 4, skipped: 0 });
    expect(await reportedRuns(db, at4)).toEqual(
      Array.from({ length: 4 }, () => ({ budget: 4, outcome: "budget", partyTurns: 4 })),
    );
    expect((await reportedRuns(db, at12)).every((r) => r.partyTurns > 4 && r.outcome !== "budget")).toBe(true);
  });
});

/**
 * The dashboard's stopping rule for a stratified expert study: PPI++ from the calibrated-estimates
 * service over the stored plan that holds its runs, else the experts-only mean, else an empty
 * state saying what is needed.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { classicalMean, labelsToReport } from "../../../app/domain/estimation/mean-estimators.ts";
import { loadItems, loadLatestLabels } from "../../../app/server/annotation/dashboard-data.server.ts";
import { calibratedEstimates } from "../../../app/server/estimation/calibrated.server.ts";
import { stoppingPanel } from "../../../app/server/estimation/stopping-rule.server.ts";
import { touchBenchmarkPlan } from "../../../app/server/models/benchmark-plan.server.ts";
import { findStudy } from "../../../app/server/models/study.server.ts";
import { evaluatedTrajectories } from "../../../app/server/models/run.server.ts";
import { nextTask } from "../../../app/server/annotation/assignment.server.ts";
import { createConsensusStudy } from "../../../app/server/annotation/studies.server.ts";
import { submitLabel } from "../../../app/server/annotation/submit.server.ts";
import { activeDesignOf, studyRunValues } from "../../../app/server/estimation/active-study.server.ts";
import { addAnnotator, validConsensusLabel } from "../../../harness/annotation.ts";
import { labelledPlanDb, MAIN_JUDGE, type LabelledPlan } from "./fixture.ts";

const panelOf = async (f: LabelledPlan) =>
  await stoppingPanel(
    f.db,
    f.studyId,
    await loadItems(f.db, [f.studyId]),
    await loadLatestLabels(f.db, [f.studyId], "statistics"),
  );

describe("a stratified study's stopping rule", () => {
  let f: LabelledPlan;
  beforeAll(async () => {
    f = await labelledPlanDb();
  });
  afterAll(() => f.cleanup());

  it("without a stored plan: the experts-only mean per mediator over the completely labelled runs", async () => {
    const panel = await panelOf(f);
    expect(panel.source).toBe("human");
    expect(panel.empty).toBeNull();
    const items = await loadItems(f.db, [f.studyId]);
    const { human, complete } = await studyRunValues(
      f.db,
      (await findStudy(f.db, f.studyId))!,
      items,
      await loadLatestLabels(f.db, [f.studyId], "statistics"),
    );
    const mediatorOf = new Map((await evaluatedTrajectories(f.db)).map((t) => [t.runId, t.mediator]));
    for (const row of panel.rows) {
      const ys = [...complete]
        .filter((r) => mediatorOf.get(r) === row.mediator)
        .map((r) => human.get(r)![row.quantity]!);
      const expected = classicalMean(ys);
      expect(row.estimate?.estimate).toBe(expected?.estimate);
      expect(row.estimate?.halfWidth).toBe(expected?.halfWidth);
      expect(row.further).toBe(expected ? labelsToReport(expected, 0.05) : null);
    }
    expect(panel.rows.some((r) => r.estimate !== null)).toBe(true);
  });

  it("with the plan stored: PPI++ from the calibrated-estimates service, per mediator overall", async () => {
    await touchBenchmarkPlan(f.db, {
      hash: f.loaded.hash,
      name: f.loaded.plan.name,
      plan: f.loaded.plan,
      source: "plan.json",
    });
    const panel = await panelOf(f);
    expect(panel.source).toBe("ppi");
    expect(panel.planName).toBe(f.loaded.plan.name);
    const service = (await calibratedEstimates(f.db, { loaded: f.loaded, studyIds: [f.studyId] })).rows.filter(
      (r) => r.domain === null,
    );
    expect(panel.rows.map((r) => [r.mediator, r.quantity, r.estimate])).toEqual(
      service.map((r) => [r.mediator ?? "none", r.quantity, r.ppi]),
    );
    for (const r of panel.rows) expect(r.further).toBe(r.estimate ? labelsToReport(r.estimate, 0.05) : null);
  });
});

describe("the stopping rule's empty state", () => {
  let f: LabelledPlan;
  beforeAll(async () => {
    f = await labelledPlanDb({ trajectories: 2, unlabelledTail: 1000 });
  });
  afterAll(() => f.cleanup());

  it("says what is needed when no run is completely labelled", async () => {
    const panel = await panelOf(f);
    expect(panel.source).toBeNull();
    expect(panel.rows).toEqual([]);
    expect(panel.empty).toMatch(/at least two runs whose snippets all have their k labels/);
    expect(panel.empty).toMatch(/benchmark plan/);
  });
});

describe("an active study in the calibrated-estimates service", () => {
  let f: LabelledPlan;
  let activeId = 0;
  beforeAll(async () => {
    f = await labelledPlanDb({ trajectories: 2 });
    activeId = await createConsensusStudy(f.db, {
      name: "Active on the plan",
      pool: "expert",
      trajectories: 12,
      config: { seed: 8, allocation: "active", judgeBackbones: [MAIN_JUDGE] },
    });
    for (const name of ["ivy", "jon"]) {
      const expert = await addAnnotator(f.db, name, "expert");
      for (let lease = await nextTask(f.db, activeId, expert); lease; lease = await nextTask(f.db, activeId, expert))
        await submitLabel(f.db, {
          studyId: activeId,
          itemId: lease.itemId,
          annotatorId: expert,
          payload: await validConsensusLabel(f.db, lease.itemId, 1 + (lease.itemId % 5)),
          clientToken: `active-plan-${name}-${lease.itemId}`,
          secondsOnTask: 9,
        });
    }
  });
  afterAll(() => f.cleanup());

  it("fills `active` from the study's design: π at the prefix, only the prefix labelled", async () => {
    const design = (await activeDesignOf(f.db, [activeId]))!;
    const rows = (await calibratedEstimates(f.db, { loaded: f.loaded, studyIds: [activeId] })).rows;
    const withActive = rows.filter((r) => r.active !== null);
    expect(withActive.length).toBeGreaterThan(0);
    const sampled = new Set(
      (f.db.$client.prepare("SELECT run_id FROM study_draws WHERE study_id = ?").all(activeId) as { run_id: string }[])
        .map((r) => r.run_id)
        .filter((id) => design.sampled!(id)),
    );
    expect(sampled.size).toBe(12);
    // The active estimates count only labelled runs, and at most the 12 drawn ones per quantity (two quantities).
    for (const r of withActive) expect(r.active!.labelled).toBeLessThanOrEqual(r.labelled);
    expect(withActive.reduce((s, r) => s + (r.domain === null ? 0 : r.active!.labelled), 0)).toBeLessThanOrEqual(24);
    // Without an active study among those named, no row has one.
    expect(
      (await calibratedEstimates(f.db, { loaded: f.loaded, studyIds: [f.studyId] })).rows.every((r) => !r.active),
    ).toBe(true);
  });
});

/**
 * The report's emotion part on a real database: the grid of the report fixture, with some runs
 * given a self-reported emotion (turns.emotion), others two emotion-judge evaluations, and
 * metric_values rows stored as the registry stores ER/EF/EV/EC. Each run is read through its
 * preferred trajectory (self-report, else the plan's judge); Table 1's proxy reads the A/B
 * pairs' volatility from the same trajectories.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import * as schema from "../../../../db/schema.ts";
import {
  emotionConsensusSubjectId,
  emotionEvaluationId,
  emotionSubjectId,
  type EmotionSource,
} from "../../../../app/domain/emotion/trajectory.ts";
import { evaluationId } from "../../../../app/domain/evaluation-ids.ts";
import { pearson } from "../../../../app/domain/stats/correlation.ts";
import { planGrid, type LoadedPlan } from "../../../../app/server/benchmark/plan-file.server.ts";
import { loadReportData } from "../../../../app/server/benchmark/report-data.server.ts";
import { buildBenchmarkReport } from "../../../../app/server/benchmark/report.server.ts";
import { writeReportFiles } from "../../../../app/server/benchmark/report-files.server.ts";
import { loadFidelityProxy } from "../../../../app/server/benchmark/report-studies.server.ts";
import type { Db } from "../../../../app/server/db.server.ts";
import { upsertMetricValue } from "../../../../app/server/models/metric-value.server.ts";
import { playedScenarioRow, runTurnRows } from "../../../../app/server/models/run.server.ts";
import { tempDir } from "../../../../harness/temp-db.ts";
import { databasePerTest } from "../../pipeline/test-db.ts";
import { fixturePlan, MAIN_JUDGE, seedGrid } from "./fixture.ts";
import { reportCell } from "./recompute.ts";

const freshDb = databasePerTest();
const PLAN_JUDGE = "emo-b";
const loaded: LoadedPlan = fixturePlan({ emotion: { selfReport: true, judge: { model: PLAN_JUDGE } } });

/** Gives every party turn of the run a self-reported score: `scores(party)` in turn order, cycled. */
async function selfReport(db: Db, runId: string, scores: (party: string) => number[]) {
  const seen = new Map<string, number>();
  for (const turn of (await runTurnRows(db, runId)).filter((t) => t.role === "party")) {
    const i = seen.get(turn.speaker) ?? 0;
    seen.set(turn.speaker, i + 1);
    const list = await scores(turn.speaker);
    await db
      .update(schema.turns)
      .set({ emotion: list[i % list.length], emotionReason: "hand-set" })
      .where(and(eq(schema.turns.runId, runId), eq(schema.turns.turnId, turn.turnId)));
  }
}

/** Stores an emotion-judge evaluation scoring every party turn 50. */
async function judged(db: Db, runId: string, backbone: string) {
  const parties = (await playedScenarioRow(db, runId))!.body.parties.map((p) => p.id);
  const turns = await runTurnRows(db, runId);
  const output = Object.fromEntries(
    parties.map((p) => [
      p,
      { scores: turns.filter((t) => t.speaker === p).map((t) => ({ turn_id: t.turnId, score: 50, reason: "r" })) },
    ]),
  );
  await db
    .insert(schema.evaluations)
    .values({ id: emotionEvaluationId(runId, backbone), runId, method: "emotion", backbone, output, errors: [] });
}

/** The rows the registry stores for one trajectory of a run (EC under the main evaluator's evaluation). */
async function storeRows(
  db: Db,
  runId: string,
  source: EmotionSource,
  values: { ER?: number | null; EF: number; EV: number; EC: number },
) {
  const row = async (
    evaluation: string,
    metric: string,
    value: number | null,
    params: Record<string, unknown>,
    detail: Record<string, unknown> = {},
  ) =>
    await upsertMetricValue(db, {
      subjectKind: "run",
      subjectId: runId,
      evaluationId: evaluation,
      metric,
      value,
      detail: { source: source.kind, ...detail },
      params,
      definitionVersion: 1,
      computedAt: "2026-01-01T00:00:00Z",
    });
  const id = emotionSubjectId(runId, source);
  if (values.ER !== undefined)
    await row(
      id,
      "ER",
      values.ER,
      { hE: 5 },
      { perIntervention: [{ m: 3, progress: 0.25, before: 0.5, afterTurn: 8, after: 0.6, er: values.ER }] },
    );
  await row(id, "EF", values.EF, {});
  await row(id, "EV", values.EV, {});
  await row(
    emotionConsensusSubjectId(runId, source, evaluationId(runId, "topic-localized", MAIN_JUDGE)),
    "EC",
    values.EC,
    {
      s0: 1,
    },
  );
}

const SELF: EmotionSource = { kind: "self" };
const judgeSource = (runId: string, backbone: string): EmotionSource => ({
  kind: "judge",
  backbone,
  evaluationId: emotionEvaluationId(runId, backbone),
});

describe("the report's emotion part from stored rows", () => {
  it("reads each run's preferred trajectory: the self-report, else the plan's emotion judge; runs without emotion stay out", async () => {
    const db = await freshDb();
    await seedGrid(db, loaded);
    const units = (await planGrid(db, loaded.plan)).units.filter(
      (u) => u.part === "main" && u.conditionKey === "emotion:CR",
    );
    expect(units).toHaveLength(4);
    const run = (u: (typeof units)[number], mediator: string) => u.mediated.find((m) => m.mediator === mediator)!.runId;
    for (const [i, u] of units.entries()) {
      // alpha: self-reported, ER 0.1, 0.2, 0.3, 0.4 → mean 0.25.
      const a = run(u, "alpha");
      await selfReport(db, a, () => [40, 60]);
      await storeRows(db, a, SELF, { ER: 0.1 * (i + 1), EF: 0.5, EV: 0.2, EC: 0.4 });
      // beta: judged by emo-a (0.9) and by the plan's emo-b (−0.2); a stray self row is not read (no self-report).
      const b = run(u, "beta");
      for (const backbone of ["emo-a", PLAN_JUDGE]) await judged(db, b, backbone);
      await storeRows(db, b, judgeSource(b, "emo-a"), { ER: 0.9, EF: 0.9, EV: 0.9, EC: 0.9 });
      await storeRows(db, b, judgeSource(b, PLAN_JUDGE), { ER: -0.2, EF: 0.3, EV: 0.1, EC: -0.5 });
      await storeRows(db, b, SELF, { ER: 0.7, EF: 0.7, EV: 0.7, EC: 0.7 });
      // The unmediated run: self-reported, EF 0.2 / 0.4 alternating → mean 0.3.
      await selfReport(db, u.unmediatedRunId, () => [30, 50]);
      await storeRows(db, u.unmediatedRunId, SELF, { EF: i % 2 === 0 ? 0.2 : 0.4, EV: 0.3, EC: 0.1 });
    }

    const data = await loadReportData(db, loaded, await planGrid(db, loaded.plan));
    const subjectOf = (runId: string) => data.input.subjects.find((s) => s.runId === runId)!;
    expect(subjectOf(run(units[0], "alpha")).emotion).toEqual({
      source: "self-report",
      ER: 0.1,
      EF: 0.5,
      EV: 0.2,
      EC: 0.4,
      interventions: [{ progress: 0.25, er: 0.1 }],
    });
    expect(subjectOf(run(units[0], "beta")).emotion).toMatchObject({
      source: `judge ${PLAN_JUDGE}`,
      ER: -0.2,
      EC: -0.5,
    });
    expect(subjectOf(run(units[0], "gamma")).emotion).toBeNull();
    expect(data.input.unmediated.find((u) => u.runId === units[0].unmediatedRunId)!.emotion).toMatchObject({
      source: "self-report",
      ER: null,
      EF: 0.2,
    });
    expect(data.params.get("hE")).toEqual(new Set(["5"]));

    const report = await buildBenchmarkReport(db, loaded);
    expect(report.tables.map((t) => t.id).slice(-2)).toEqual(["emotion-repair", "emotion-summary"]);
    expect(report.figures.map((f) => f.id)).toContain("emotion-repair-figure");
    expect(report.warnings.join(" ")).not.toContain("Emotion tables");
    const repair = report.tables.find((t) => t.id === "emotion-repair")!;
    expect(repair.columns[0]).toMatchObject({ key: "emotion:CR", group: "emotion axis" });
    const alpha = reportCell(repair, "alpha", "emotion:CR");
    expect(alpha.mean).toBeCloseTo(0.25, 12);
    expect(alpha.n).toBe(4);
    expect(alpha.runIds.sort()).toEqual(units.map((u) => run(u, "alpha")).sort());
    expect(reportCell(repair, "beta", "emotion:CR").mean).toBeCloseTo(-0.2, 12);
    expect(reportCell(repair, "gamma", "all")).toMatchObject({ mean: null, n: 0, missing: 0 });
    // Conditions where no run has emotion have no counted run.
    expect(reportCell(repair, "alpha", "general").n).toBe(0);

    const summary = report.tables.find((t) => t.id === "emotion-summary")!;
    expect(reportCell(summary, "unmediated", "EF").mean).toBeCloseTo(0.3, 12);
    expect(reportCell(summary, "unmediated", "EF").n).toBe(4);
    expect(reportCell(summary, "beta", "EV").mean).toBeCloseTo(0.1, 12);
    expect(report.constants.params).toMatchObject({ hE: 5, s0: 1 });

    // Every output renders the new tables and figure (the generic renderers).
    const out = tempDir();
    try {
      await writeReportFiles(report, out.dir);
      const md = readFileSync(join(out.dir, "report.md"), "utf8");
      expect(md).toContain("## Emotional repair by mediator × condition");
      expect(md).toContain("emotion-repair-figure.svg");
      expect(readFileSync(join(out.dir, "emotion-summary.csv"), "utf8")).toContain("unmediated");
      expect(readFileSync(join(out.dir, "emotion-repair-figure.csv"), "utf8")).toContain("alpha");
      expect(readFileSync(join(out.dir, "emotion-repair-figure.svg"), "utf8")).toMatch(/^<svg/);
      expect(readFileSync(join(out.dir, "report.html"), "utf8")).toContain("Emotion summary per mediator");
    } finally {
      out.cleanup();
    }
  });

  it("omits the emotion part with a warning when no run has emotion", async () => {
    const db = await freshDb();
    await seedGrid(db, loaded);
    const report = await buildBenchmarkReport(db, loaded);
    expect(report.tables.map((t) => t.id)).not.toContain("emotion-repair");
    expect(report.warnings).toContainEqual(expect.stringContaining("socrates evaluate --method emotion"));
  });

  it("Table 1's proxy: the A/B pairs' target volatility from each run's preferred trajectory, placed first without a study", async () => {
    const db = await freshDb();
    await seedGrid(db, loaded);
    const units = (await planGrid(db, loaded.plan)).units.filter(
      (u) => u.part === "main" && u.scenarioId.includes("transactional"),
    );
    const [r1, r2, r3, r4] = units.slice(0, 4).map((u) => u.unmediatedRunId);
    const target = (await playedScenarioRow(db, r1))!.body.parties[0].id;
    // Target volatility: r1 40→80→40… = 0.4; r2 50→55… = 0.05; r3 20→60… = 0.4; r4 (judged 50 flat) = 0.
    await selfReport(db, r1, () => [40, 80]);
    await selfReport(db, r2, () => [50, 55]);
    await selfReport(db, r3, () => [20, 60]);
    await judged(db, r4, PLAN_JUDGE);
    const pair = async (id: string, a: string, b: string, levelA: number, levelB: number) =>
      await db
        .insert(schema.abPairs)
        .values({ id, scenarioId: units[0].scenarioId, runAId: a, runBId: b, targetParty: target, levelA, levelB });
    await pair("p1", r1, r2, 3, 0); // more reactive is more volatile: ordered
    await pair("p2", r4, r3, 2, 1); // more reactive (r4) is less volatile: not ordered

    const [proxy] = await loadFidelityProxy(db, PLAN_JUDGE);
    expect(proxy).toMatchObject({
      backbone: "sim-main",
      pairs: 2,
      measuredPairs: 2,
      ordered: 1,
      ties: 0,
      agreement: 0.5,
      observations: 4,
    });
    const expected = pearson([3, 0, 2, 1], [0.4, 0.05, 0, 0.4]);
    expect(proxy.r).toBeCloseTo(expected.r!, 12);

    const report = await buildBenchmarkReport(db, loaded);
    expect(report.tables[0].id).toBe("table1proxy");
    expect(report.tables[0].rows[0].cells.agreement).toEqual({ text: "50.0%", value: 0.5 });
    expect(report.tables[0].notes.join(" ")).toContain("stands alone");
  });
});

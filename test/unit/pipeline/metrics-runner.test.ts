import { and, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import * as schema from "../../../db/schema.ts";
import type { PerTurnOutput } from "../../../app/domain/bundle.ts";
import {
  consensusChange,
  consensusGain,
  firstIntervention,
  interventionEffectiveness,
  interventionFrequency,
  interventionTimeliness,
  mediatorEffectiveness,
  responseLatency,
  topicLevelEfficiency,
} from "../../../app/domain/metrics/index.ts";
import { exportBundle } from "../../../app/server/bundle-store.server.ts";
import { getRunView } from "../../../app/server/catalog.server.ts";
import type { Db } from "../../../app/server/db.server.ts";
import { seedDemo } from "../../../demo/seed.ts";
import { METRICS } from "../../../app/domain/metrics/registry.ts";
import { explainMetric } from "../../../app/domain/metrics/metric-format.ts";
import {
  DEFAULT_METRIC_PARAMS,
  MetricParamsError,
  parseMetricParams,
} from "../../../app/domain/metrics/metric-params.ts";
import { computeMetrics, getRunMetrics } from "../../../app/server/pipeline/metrics-runner.server.ts";
import {
  metricRowsOfMetrics,
  metricValuesOf,
  staleMetricValuesOf,
  upsertMetricValue,
} from "../../../app/server/models/metric-value.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { MEDIATED, PAIR, UNMEDIATED } from "./evaluation-helpers.ts";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function demoDb(): Promise<Db> {
  const t = await tempDb();
  cleanups.push(t.cleanup);
  await seedDemo(t.db);
  return t.db;
}

async function stored(db: Db, subjectId: string, evaluationId: string, metric: string) {
  const rows = await db.select().from(schema.metricValues).where(eq(schema.metricValues.subjectId, subjectId));
  const row = rows.find((r) => r.evaluationId === evaluationId && r.metric === metric);
  if (!row) throw new Error(`no ${metric} stored for ${subjectId} / ${evaluationId || "(run)"}`);
  return row;
}

/** Number or null, compared with a tolerance for floating-point sums. */
function expectSame(actual: number | null, expected: number | null): void {
  if (expected === null) expect(actual).toBeNull();
  else expect(actual).toBeCloseTo(expected, 12);
}

describe("metrics runner", () => {
  it("stores, for every demo run and evaluation, the values the metric functions give on the stored series", async () => {
    const db = await demoDb();
    const summary = await computeMetrics(db, { now: new Date("2025-01-02T03:04:05Z") });
    const bundle = await exportBundle(db);
    expect(summary.runs).toBe(bundle.runs.length);
    expect(summary.pairs).toBe(bundle.matched_pairs.length);

    expect(bundle.runs.filter((r) => !r.mediated).length).toBeGreaterThan(0);
    for (const run of bundle.runs) {
      // Series rebuilt from the derived rows the run viewer reads, not from the judge output the runner reads.
      const view = (await getRunView(db, run.id))!;
      const mediatorTurns = view.turns.filter((t) => t.role === "mediator").map((t) => t.turnId);
      const T = view.run.totalTurns;
      const metricsOf = new Set(
        (await db.select().from(schema.metricValues).where(eq(schema.metricValues.subjectId, run.id))).map(
          (r) => r.metric,
        ),
      );
      if (!run.mediated) {
        // Mediator metrics belong to mediated runs: an unmediated run has no row of them, not 0 or null.
        for (const metric of ["IT", "IE", "IF", "FI", "RL", "ME", "MI"])
          expect(metricsOf.has(metric), `${metric} of ${run.id}`).toBe(false);
        if (view.evaluations.some((e) => e.method === "per-turn")) expect([...metricsOf].sort()).toEqual(["CC", "TLE"]);
      } else {
        expectSame(
          (await stored(db, run.id, "", "IF")).value,
          interventionFrequency(view.run.mediatorTurns, view.run.partyTurns).frequency,
        );
        expectSame((await stored(db, run.id, "", "FI")).value, firstIntervention(mediatorTurns, T).fi);
      }

      for (const evaluation of view.evaluations) {
        if (!run.mediated && evaluation.method === "topic-localized") continue;
        if (evaluation.method === "topic-localized") {
          const it = await stored(db, run.id, evaluation.id, "IT");
          expectSame(it.value, interventionTimeliness(evaluation.consensus, mediatorTurns).it);
          expect(it.params).toEqual({ s0: 1, delta: 0.05, W: 10 });
          expect(it.computedAt).toBe("2025-01-02T03:04:05.000Z");
          const ie = await stored(db, run.id, evaluation.id, "IE");
          expectSame(ie.value, interventionEffectiveness(evaluation.consensus, mediatorTurns).ie);
          expect(ie.params).toEqual({ s0: 1, h: 5 });
          // The timing-profile input: each intervention's progress m / T with its lift.
          const lifts = (ie.detail as { perIntervention: { m: number; progress: number; ie: number }[] })
            .perIntervention;
          expect(lifts.map((l) => l.progress)).toEqual(mediatorTurns.map((m) => m / T));
        } else {
          const G = evaluation.consensus;
          const byTopic = Object.fromEntries(evaluation.topics.map((t) => [t.topicId, t.values]));
          const output = bundle.evaluations.find((e) => e.id === evaluation.id)!.output as PerTurnOutput;
          const targets = output.turns
            .filter((e) => e.speaker === "MEDIATOR")
            .map((e) => ({ turn: e.turn_id, targetTopics: e.mentioned_topics ?? [] }));
          // n_k: the party turns located for k, and the mediator turns that name k.
          const mentions = Object.fromEntries(
            evaluation.topics.map((t) => [
              t.topicId,
              [
                ...t.located.flatMap((l, i) => (l ? [i] : [])),
                ...targets.filter((m) => m.targetTopics.includes(t.topicId)).map((m) => m.turn),
              ].sort((a, b) => a - b),
            ]),
          );
          const seconds = (run.mediator_decisions ?? []).flatMap((d) => (d.seconds === undefined ? [] : [d.seconds]));

          expectSame((await stored(db, run.id, evaluation.id, "CC")).value, consensusChange(G).cc);
          expectSame(
            (await stored(db, run.id, evaluation.id, "TLE")).value,
            topicLevelEfficiency(byTopic, mentions).tle,
          );
          if (!run.mediated) continue;
          const rl = await stored(db, run.id, evaluation.id, "RL");
          const expectedRl = responseLatency(G, mediatorTurns, {}, seconds);
          expectSame(rl.value, expectedRl.meanLatency);
          expect(rl.detail).toMatchObject({
            events: expectedRl.eventCount,
            unresponded: expectedRl.unresponded,
            unrespondedShare: expectedRl.unrespondedShare,
          });
          expectSame(
            (rl.detail as { meanDecisionSeconds: number | null }).meanDecisionSeconds,
            expectedRl.meanDecisionSeconds,
          );
          expectSame(
            (await stored(db, run.id, evaluation.id, "ME")).value,
            mediatorEffectiveness(byTopic, targets, T).me,
          );
        }
      }
    }

    // CG for each matched pair, from the final consensus of the two runs under the same judge.
    for (const pair of bundle.matched_pairs) {
      const mediated = (await getRunView(db, pair.mediated_run_id))!.evaluations.filter(
        (e) => e.method === "topic-localized",
      );
      const unmediated = (await getRunView(db, pair.unmediated_run_id))!.evaluations.filter(
        (e) => e.method === "topic-localized",
      );
      for (const m of mediated) {
        const u = unmediated.find((e) => e.backbone === m.backbone)!;
        const cg = await stored(db, pair.id, m.id, "CG");
        expectSame(
          cg.value,
          consensusGain(u.consensus[u.consensus.length - 1], m.consensus[m.consensus.length - 1]).cg,
        );
        expect(cg.detail).toMatchObject({ backbone: m.backbone, unmediatedEvaluationId: u.id });
      }
    }
  });

  it("averages the applicable MI scores per judge backbone and leaves out −1", async () => {
    const db = await demoDb();
    const scores = [
      [3, 4, -1, 5],
      [2, -1, -1, 4],
    ];
    for (const [i, s] of scores.entries()) {
      await db.insert(schema.interventionJudgments).values({
        runId: MEDIATED,
        turnId: [5, 11][i],
        backbone: "judge-x",
        perceptionAlignment: s[0],
        emotionalDynamics: s[1],
        cognitiveChallenges: s[2],
        communicationBreakdowns: s[3],
        reason: "test",
      });
    }
    await computeMetrics(db, { runId: MEDIATED });
    const applicable = scores.flat().filter((s) => s !== -1);
    const mi = await stored(db, MEDIATED, `${MEDIATED}:mi:judge-x`, "MI");
    expectSame(mi.value, applicable.reduce((a, b) => a + b, 0) / applicable.length);
    expect(mi.detail).toMatchObject({
      backbone: "judge-x",
      interventions: 2,
      applicableScores: 5,
      notApplicableScores: 3,
      unjudged: 3,
    });
  });

  it("records undefined metrics as null with a reason, and upserts with the parameters used", async () => {
    const db = await demoDb();
    const evaluationId = `${MEDIATED}:topic-localized:demo-judge`;
    // No fall of C reaches δ = 1, so IT is undefined: null with a reason, not 0.
    await computeMetrics(db, { runId: MEDIATED, params: { delta: 1 } });
    const none = await stored(db, MEDIATED, evaluationId, "IT");
    expect(none.value).toBeNull();
    expect(none.detail).toMatchObject({ reason: "no drop events", events: 0 });
    const count = async () => (await db.select().from(schema.metricValues)).length;
    const before = await count();

    await computeMetrics(db, { runId: MEDIATED, params: { delta: 0.2, W: 4 } });
    expect(await count()).toBe(before);
    const it = await stored(db, MEDIATED, evaluationId, "IT");
    expect(it.params).toEqual({ s0: 1, delta: 0.2, W: 4 });
    const view = (await getRunView(db, MEDIATED))!;
    const C = view.evaluations.find((e) => e.id === evaluationId)!.consensus;
    const expected = interventionTimeliness(
      C,
      view.turns.filter((t) => t.role === "mediator").map((t) => t.turnId),
      { delta: 0.2, window: 4 },
    );
    expectSame(it.value, expected.it);
    expect(it.detail).toMatchObject({ events: expected.events.length, censored: expected.censored });
  });

  it("stores no mediator metric for an unmediated run (not 0, not null), and CC, TLE and CG as usual", async () => {
    const db = await demoDb();
    // What an earlier version stored for it (IT = 0, IF = 0) goes.
    const stale = {
      subjectKind: "run" as const,
      subjectId: UNMEDIATED,
      value: 0,
      detail: {},
      params: {},
      definitionVersion: 1,
      computedAt: "2025-01-01T00:00:00.000Z",
    };
    await upsertMetricValue(db, { ...stale, evaluationId: "", metric: "IF" });
    await upsertMetricValue(db, { ...stale, evaluationId: `${UNMEDIATED}:topic-localized:demo-judge`, metric: "IT" });
    const summary = await computeMetrics(db, { runId: UNMEDIATED });
    const own = summary.rows.filter((r) => r.subjectId === UNMEDIATED);
    expect(own.map((r) => `${r.evaluationId}/${r.metric}`).sort()).toEqual([
      `${UNMEDIATED}:per-turn:demo-judge/CC`,
      `${UNMEDIATED}:per-turn:demo-judge/TLE`,
    ]);
    const stored = await db.select().from(schema.metricValues).where(eq(schema.metricValues.subjectId, UNMEDIATED));
    expect(stored.map((r) => r.metric).sort()).toEqual(["CC", "TLE"]);
    expect(summary.rows.filter((r) => r.subjectId === PAIR).map((r) => r.metric)).toEqual(["CG"]);
  });

  it("stores CG null and incomplete in SQLite when a topic of the unmediated run's judge pass failed", async () => {
    const db = await demoDb();
    const evaluationId = `${UNMEDIATED}:topic-localized:demo-judge`;
    const row = (
      await db.select().from(schema.evaluations).where(eq(schema.evaluations.id, evaluationId)).limit(1)
    )[0]!;
    const [failed, ...kept] = Object.keys(row.output as Record<string, unknown>);
    const output = Object.fromEntries(
      Object.entries(row.output as Record<string, unknown>).filter(([k]) => k !== failed),
    );
    await db
      .update(schema.evaluations)
      .set({ output, errors: [{ topic_id: failed, message: "judge reply rejected: not JSON" }] })
      .where(eq(schema.evaluations.id, evaluationId));
    expect(kept.length).toBeGreaterThan(0);

    await computeMetrics(db, { runId: MEDIATED });
    const cg = await stored(db, PAIR, `${MEDIATED}:topic-localized:demo-judge`, "CG");
    expect(cg.value).toBeNull();
    expect(cg.detail).toMatchObject({
      incomplete: true,
      failedTopics: [failed],
      evaluationErrors: 1,
      incompleteRuns: [UNMEDIATED],
      backbone: "demo-judge",
    });
    // The mediated run's own C is complete: its IT is a value computed as before.
    const view = (await getRunView(db, MEDIATED))!;
    const C = view.evaluations.find((e) => e.method === "topic-localized")!.consensus;
    expectSame(
      (await stored(db, MEDIATED, `${MEDIATED}:topic-localized:demo-judge`, "IT")).value,
      interventionTimeliness(
        C,
        view.turns.filter((t) => t.role === "mediator").map((t) => t.turnId),
      ).it,
    );
  });

  it("never serves a value an earlier metric definition computed, and computes it again", async () => {
    const db = await demoDb();
    const evaluationId = `${MEDIATED}:per-turn:demo-judge`;
    await computeMetrics(db, { runId: MEDIATED });
    const current = await stored(db, MEDIATED, evaluationId, "RL");
    expect(current.definitionVersion).toBe(2);
    // As the first definition left it (latency from each start, before issue 28).
    const where = (metric: string) =>
      and(
        eq(schema.metricValues.subjectId, MEDIATED),
        eq(schema.metricValues.evaluationId, evaluationId),
        eq(schema.metricValues.metric, metric),
      );
    await db.update(schema.metricValues).set({ definitionVersion: 1, value: 5 }).where(where("RL"));

    expect((await metricValuesOf(db, "run", MEDIATED)).some((r) => r.metric === "RL")).toBe(false);
    expect(
      (await staleMetricValuesOf(db, "run", MEDIATED)).map((r) => [r.metric, r.definitionVersion, r.value]),
    ).toEqual([["RL", 1, 5]]);
    expect((await metricRowsOfMetrics(db, "run", ["RL"])).some((r) => r.subjectId === MEDIATED)).toBe(false);
    // The run page says why there is no value, without the old one.
    const page = (await getRunMetrics(db, MEDIATED)).evaluations[evaluationId].find((m) => m.metric === "RL")!;
    expect(page.value).toBeNull();
    expect(page.detail).toEqual({
      stale: true,
      reason: "computed by definition v1 of RL, now v2: npx socrates metrics computes it again",
    });
    expect(explainMetric(page)).toBe("computed by definition v1 of RL, now v2: npx socrates metrics computes it again");

    await computeMetrics(db, { runId: MEDIATED });
    const again = await stored(db, MEDIATED, evaluationId, "RL");
    expect([again.definitionVersion, again.value]).toEqual([2, current.value]);
    expect(await staleMetricValuesOf(db, "run", MEDIATED)).toEqual([]);
  });

  it("rejects unknown or out-of-range parameters, naming the key", () => {
    expect(parseMetricParams({})).toEqual(DEFAULT_METRIC_PARAMS);
    expect(() => parseMetricParams({ detla: 0.1 })).toThrow(MetricParamsError);
    expect(() => parseMetricParams({ detla: 0.1 })).toThrow(/detla/);
    expect(() => parseMetricParams({ W: 0 }, "--params")).toThrow(/^--params: \$\.W: /);
  });

  it("gives the run page its metrics, the matched pair's CG included", async () => {
    const db = await demoDb();
    expect(await getRunMetrics(db, MEDIATED)).toEqual({
      run: [],
      evaluations: {},
      pair: { id: PAIR, rows: [] },
      computedAt: null,
    });
    await computeMetrics(db, { runId: MEDIATED, now: new Date("2025-05-06T07:08:09Z") });
    for (const runId of [MEDIATED, UNMEDIATED]) {
      const metrics = await getRunMetrics(db, runId);
      expect(metrics.pair?.rows.map((m) => m.detail.backbone)).toEqual(["demo-judge"]);
    }
    const metrics = await getRunMetrics(db, MEDIATED);
    // Every registered metric of each input kind (no MI judgments here): IF, FI; IT, IE; CC, TLE, RL, ME.
    const reading = (input: string) =>
      METRICS.filter((m) => m.input === input)
        .map((m) => m.id)
        .sort();
    expect(reading("run")).toEqual(expect.arrayContaining(["FI", "IF"]));
    expect(metrics.run.map((m) => m.metric).sort()).toEqual(reading("run"));
    expect(metrics.evaluations[`${MEDIATED}:topic-localized:demo-judge`].map((m) => m.metric).sort()).toEqual(
      reading("topic-localized"),
    );
    expect(reading("topic-localized")).toEqual(expect.arrayContaining(["IE", "IT"]));
    expect(metrics.evaluations[`${MEDIATED}:per-turn:demo-judge`].map((m) => m.metric).sort()).toEqual(
      reading("per-turn"),
    );
    expect(reading("per-turn")).toEqual(expect.arrayContaining(["CC", "ME", "RL", "TLE"]));
    expect(metrics.computedAt).toBe("2025-05-06T07:08:09.000Z");
    expect(metrics.pair!.rows[0].value).toBe(
      (await stored(db, PAIR, `${MEDIATED}:topic-localized:demo-judge`, "CG")).value,
    );
  });
});

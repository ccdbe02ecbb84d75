/**
 * The emotion metrics in the registry (docs/metrics-emotion.md): ER, EF, EV per emotion
 * trajectory, EC per trajectory × topic-localized evaluation, with incomplete judge output giving
 * null rows. The run is the descriptor fixture (A, B, MEDIATOR, A, B, MEDIATOR, A, B; T = 8) with
 * the hand-made scores of test/unit/emotion/hand-made.ts:
 *   Ē[t], t = 0..8:  —  —  .40 .40 .50 .45 .45 .50 .70
 */
import { describe, expect, it } from "vitest";
import type { TopicJudgeOutput } from "../../../../app/domain/bundle.ts";
import type { MetricView, RunMetrics } from "../../../../app/domain/catalog-views.ts";
import type { EmotionTrajectory } from "../../../../app/domain/emotion/trajectory.ts";
import { explainMetric } from "../../../../app/domain/metrics/metric-format.ts";
import { runInputs, type RunData, type StoredEvaluation } from "../../../../app/domain/metrics/metric-inputs.ts";
import { DEFAULT_METRIC_PARAMS, parseMetricParams } from "../../../../app/domain/metrics/metric-params.ts";
import { runMetricRows } from "../../../../app/domain/metrics/metric-rows.ts";
import { runMetricTables } from "../../../../app/domain/metrics/run-metric-tables.ts";
import { POINTS, selfTrajectory } from "../../emotion/hand-made.ts";
import { runData } from "./fixtures.ts";

/** One topic located at turns 2 (score 2), 4 (3) and 8 (5); s0 = 1 → C = 0 0 .25 .25 .5 .5 .5 .5 1. */
const TOPIC: TopicJudgeOutput = {
  relevant_turns: [2, 4, 8],
  agreement_score: [2, 4, 8].map((turn_id, i) => ({
    turn_id,
    reason: "moves",
    score: [2, 3, 5][i],
    party_stances: { A: "x", B: "y" },
  })),
};
const topicEvaluation = (
  errors: StoredEvaluation["errors"] = [],
  output: Record<string, TopicJudgeOutput> = { k1: TOPIC },
): StoredEvaluation => ({
  id: "r1:topic-localized:j",
  method: "topic-localized",
  backbone: "j",
  output,
  errors,
});
const judged = (failedParties: string[]): EmotionTrajectory => ({
  source: { kind: "judge", backbone: "ej", evaluationId: "r1:emotion:ej" },
  parties: { A: POINTS.A, B: failedParties.includes("B") ? [] : POINTS.B },
  failedParties,
});

const run = (overrides: Partial<RunData> = {}) =>
  runData({ emotions: [selfTrajectory()], evaluations: [topicEvaluation()], ...overrides });
const rowsOf = (data: RunData, params = DEFAULT_METRIC_PARAMS) =>
  runMetricRows(data, params).filter((r) => ["ER", "EF", "EV", "EC"].includes(r.metric));

describe("emotion metric inputs", () => {
  it("builds one emotion input per trajectory and one emotion-consensus input per trajectory × topic-localized evaluation", () => {
    const items = runInputs(run({ emotions: [selfTrajectory(), judged([])] }), 1).filter(
      (i) => i.kind === "emotion" || i.kind === "emotion-consensus",
    );
    expect(items.map((i) => [i.kind, i.subject.subjectKind, i.subject.subjectId, i.subject.evaluationId])).toEqual([
      ["emotion", "run", "r1", "r1:emotion-self"],
      ["emotion-consensus", "run", "r1", "r1:emotion-self|r1:topic-localized:j"],
      ["emotion", "run", "r1", "r1:emotion:ej"],
      ["emotion-consensus", "run", "r1", "r1:emotion:ej|r1:topic-localized:j"],
    ]);
    expect(runInputs(run({ emotions: [] }), 1).some((i) => i.kind === "emotion")).toBe(false);
  });
});

describe("ER, EF, EV and EC on the self-report", () => {
  const rows = rowsOf(run());
  const row = (metric: string) => rows.find((r) => r.metric === metric)!;

  it("ER: the mean gap-normalised lift of Ē over h_E = 5 turns after each mediator turn", () => {
    // m = 3: (.70 − .40)/.60 = 1/2; m = 6: (.70 − .45)/.55 = 5/11 (horizon cut short at T = 8). ER = 21/44.
    expect(row("ER").value).toBeCloseTo(21 / 44, 12);
    expect(row("ER").params).toEqual({ hE: 5 });
    const d = row("ER").detail;
    expect(d).toMatchObject({ source: "self", interventions: 2, beforeAllReported: 0, truncatedHorizon: 1 });
    expect(d).not.toHaveProperty("backbone");
    expect(d.perIntervention).toEqual([
      { m: 3, progress: 3 / 8, before: 0.4, afterTurn: 8, after: 0.7, er: expect.closeTo(0.5, 12) },
      { m: 6, progress: 6 / 8, before: 0.45, afterTurn: 8, after: 0.7, er: expect.closeTo(5 / 11, 12) },
    ]);
    expect(explainMetric(row("ER"))).toBe(
      "2 of 2 interventions after every party had reported, 1 with a cut-short horizon",
    );
  });

  it("ER takes h_E from the parameters", () => {
    // h_E = 2: m = 3: (.45 − .40)/.60 = 1/12; m = 6: 5/11.
    const er = rowsOf(run(), parseMetricParams({ hE: 2 })).find((r) => r.metric === "ER")!;
    expect(er.value).toBeCloseTo((1 / 12 + 5 / 11) / 2, 12);
    expect(er.params).toEqual({ hE: 2 });
  });

  it("EF: Ē[T] = (.60 + .80)/2, with each party's last score", () => {
    expect(row("EF").value).toBeCloseTo(0.7, 12);
    expect(row("EF").detail).toEqual({ source: "self", perParty: { A: 0.6, B: 0.8 } });
  });

  it("EV: A (.20 + .10)/2 = .15, B (.10 + .40)/2 = .25, run .20", () => {
    expect(row("EV").value).toBeCloseTo(0.2, 12);
    expect(row("EV").detail).toMatchObject({
      source: "self",
      perParty: { A: expect.closeTo(0.15, 12), B: expect.closeTo(0.25, 12) },
    });
  });

  it("EC: Pearson r of Ē and C over turns 2..8", () => {
    // x = .40 .40 .50 .45 .45 .50 .70, y = .25 .25 .50 .50 .50 .50 1 (n = 7).
    // Sxy = 1.85 − 3.4·3.5/7 = .15; Sxx = 1.715 − 3.4²/7 = .445/7; Syy = 2.125 − 3.5²/7 = .375.
    // r = .15 / √(.445/7 · .375) = 0.97150410…
    expect(row("EC").value).toBeCloseTo(0.15 / Math.sqrt((0.445 / 7) * 0.375), 12);
    expect(row("EC").params).toEqual({ s0: 1 });
    expect(row("EC").evaluationId).toBe("r1:emotion-self|r1:topic-localized:j");
    expect(row("EC").detail).toMatchObject({ source: "self", topicBackbone: "j", n: 7 });
    expect(explainMetric(row("EC"))).toBe("emotion from self-report over 7 turns");
  });

  it("stores ER/EF/EV under the trajectory's id and no EC without a topic-localized evaluation", () => {
    const noTopic = rowsOf(run({ evaluations: [] }));
    expect(noTopic.map((r) => [r.metric, r.evaluationId])).toEqual([
      ["ER", "r1:emotion-self"],
      ["EF", "r1:emotion-self"],
      ["EV", "r1:emotion-self"],
    ]);
  });

  it("an unmediated run stores EF, EV and EC but no ER", () => {
    const speakers = ["A", "B", "A", "B", "A", "B", "A", "B"];
    const rows = rowsOf(run({ mediated: false, speakers, mediatorTurns: [], partyTurns: 8 }));
    expect(rows.map((r) => r.metric)).toEqual(["EF", "EV", "EC"]);
  });

  it("ER is null with its reason for a run without interventions after every party reported", () => {
    const er = rowsOf(run({ mediatorTurns: [1] })).find((r) => r.metric === "ER")!;
    expect(er.value).toBeNull();
    expect(er.detail).toMatchObject({
      interventions: 1,
      beforeAllReported: 1,
      reason: "no intervention after every party had reported",
    });
  });

  it("EC is null with its reason when Ē is constant", () => {
    const flat = selfTrajectory({
      A: [{ turnId: 1, score: 50, reason: null }],
      B: [{ turnId: 2, score: 50, reason: null }],
    });
    const ec = rowsOf(run({ emotions: [flat] })).find((r) => r.metric === "EC")!;
    expect(ec.value).toBeNull();
    expect(ec.detail).toMatchObject({ n: 7, p: null, reason: "x is constant (zero variance)" });
  });
});

describe("incomplete emotion input", () => {
  it("gives every metric of a judged trajectory with a failed party null, incomplete, naming the party — never computed on A alone", () => {
    const rows = rowsOf(run({ emotions: [judged(["B"])] }));
    expect(rows.map((r) => r.metric)).toEqual(["ER", "EF", "EV", "EC"]);
    for (const r of rows) {
      expect(r.value).toBeNull();
      expect(r.detail).toMatchObject({
        incomplete: true,
        failedParties: ["B"],
        source: "judge",
        backbone: "ej",
        reason: "incomplete emotion-judge output (failed parties: B)",
      });
    }
    expect(rows.find((r) => r.metric === "EC")!.detail.topicBackbone).toBe("j");
    expect(explainMetric(rows[0])).toBe("incomplete emotion-judge output (failed parties: B)");
  });

  it("gives EC null and incomplete when its topic evaluation is, ER/EF/EV still computed", () => {
    const rows = rowsOf(
      run({ topicIds: ["k1", "k2"], evaluations: [topicEvaluation([{ topic_id: "k2", message: "rejected" }])] }),
    );
    const ec = rows.find((r) => r.metric === "EC")!;
    expect(ec.value).toBeNull();
    expect(ec.detail).toEqual({
      source: "self",
      topicBackbone: "j",
      incomplete: true,
      reason: "incomplete judge output (1 recorded error; failed topics: k2)",
      failedTopics: ["k2"],
      evaluationErrors: 1,
      incompleteRuns: ["r1"],
    });
    expect(rows.filter((r) => r.metric !== "EC").every((r) => r.value !== null)).toBe(true);
  });

  it("joins both reasons when the trajectory and the topic evaluation are incomplete", () => {
    const rows = rowsOf(
      run({ emotions: [judged(["A", "B"])], evaluations: [topicEvaluation([{ message: "not JSON" }], {})] }),
    );
    const ec = rows.find((r) => r.metric === "EC")!;
    expect(ec.detail).toMatchObject({
      incomplete: true,
      failedParties: ["A", "B"],
      failedTopics: ["k1"],
      evaluationErrors: 1,
    });
    expect(ec.detail.reason).toBe(
      "incomplete emotion-judge output (failed parties: A, B); incomplete judge output (1 recorded error; failed topics: k1)",
    );
  });
});

describe("the run page's emotion tables", () => {
  it("groups ER, EF, EV by source and files EC with its topic judge's table", () => {
    const view = (r: {
      metric: string;
      value: number | null;
      detail: Record<string, unknown>;
      params: Record<string, unknown>;
    }): MetricView => ({ ...r, computedAt: "2025-01-01T00:00:00Z" });
    const rows = [...rowsOf(run({ emotions: [selfTrajectory(), judged(["B"])] }))].map(view);
    const metrics: RunMetrics = { run: rows, evaluations: {}, pair: null, computedAt: "2025-01-01T00:00:00Z" };
    // "The run itself" (here only MI's "not judged yet" placeholder) is left aside.
    const tablesOf = (evaluations: Parameters<typeof runMetricTables>[2]) =>
      runMetricTables({ id: "r1", mediated: true }, metrics, evaluations).filter((t) => t.key !== "(run)");
    const tables = tablesOf([{ id: "r1:topic-localized:j", method: "topic-localized", backbone: "j" }]);
    expect(tables.map((t) => [t.title, t.rows.map((r) => `${r.metric}:${r.detail.source}`)])).toEqual([
      ["Topic-localized C[t] · j", ["EC:self", "EC:judge"]],
      ["Emotion · self-report", ["ER:self", "EF:self", "EV:self"]],
      ["Emotion · judge ej", ["ER:judge", "EF:judge", "EV:judge"]],
    ]);
    // Without its topic judge's table (no such evaluation listed), EC stays with its source.
    const alone = tablesOf([]);
    expect(alone.map((t) => [t.title, t.rows.map((r) => r.metric)])).toEqual([
      ["Emotion · self-report", ["ER", "EF", "EV", "EC"]],
      ["Emotion · judge ej", ["ER", "EF", "EV", "EC"]],
    ]);
  });
});

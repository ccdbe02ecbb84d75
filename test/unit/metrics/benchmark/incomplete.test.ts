/**
 * Incomplete judge output gives no value (spec: "Decisions on readings"): a topic whose judge
 * reply failed is never held at s0 inside C[t]; every metric on that C (IT, IE, and CG for any
 * pair the run belongs to), and every metric on a per-turn G with a recorded error (CC, TLE, RL,
 * ME), stores null with `detail.incomplete` — and a cell counts it as missing.
 */
import { describe, expect, it } from "vitest";
import type { PerTurnOutput, TopicJudgeOutput } from "../../../../app/domain/bundle.ts";
import { aggregateCell } from "../../../../app/domain/metrics/aggregate-cell.ts";
import { consensusGain } from "../../../../app/domain/metrics/consensus-gain.ts";
import { failedTopicsOf } from "../../../../app/domain/metrics/incomplete-input.ts";
import { explainMetric } from "../../../../app/domain/metrics/metric-format.ts";
import type { RunData, StoredEvaluation } from "../../../../app/domain/metrics/metric-inputs.ts";
import { DEFAULT_METRIC_PARAMS } from "../../../../app/domain/metrics/metric-params.ts";
import { pairMetricRows, runMetricRows } from "../../../../app/domain/metrics/metric-rows.ts";
import { runData } from "./fixtures.ts";

/** A judge pass that locates the topic at turn 1 with the given score and never again. */
const located = (score: number): TopicJudgeOutput => ({
  relevant_turns: [1],
  agreement_score: [{ turn_id: 1, reason: "both accept option A", score, party_stances: { A: "A", B: "A" } }],
});

function topicEvaluation(
  runId: string,
  output: Record<string, TopicJudgeOutput>,
  errors: StoredEvaluation["errors"] = [],
): StoredEvaluation {
  return { id: `${runId}:topic-localized:j`, method: "topic-localized", backbone: "j", output, errors };
}

const TOPICS = ["k1", "k2"];
const rejected = { topic_id: "k2", message: "judge reply rejected: $.agreement_score[0].score: must be 1–5" };

/** The issue's case: both runs end in full agreement on both topics, but the unmediated run's k2 reply failed. */
function issueCase(unmediatedErrors: StoredEvaluation["errors"], unmediatedOutput: Record<string, TopicJudgeOutput>) {
  const mediated: RunData = runData({
    runId: "m",
    topicIds: TOPICS,
    evaluations: [topicEvaluation("m", { k1: located(5), k2: located(5) })],
  });
  const speakers = ["A", "B", "A", "B", "A", "B"];
  const unmediated: RunData = runData({
    runId: "u",
    mediated: false,
    topicIds: TOPICS,
    speakers,
    partyTurns: 6,
    mediatorTurns: [],
    evaluations: [topicEvaluation("u", unmediatedOutput, unmediatedErrors)],
  });
  return { mediated, unmediated, pair: { id: "p", mediated, unmediated } };
}

describe("incomplete judge output", () => {
  it("gives CG null and counted where holding the failed topic at s0 turned a CG of 0 into 1.0", () => {
    // Complete: U = M = 1 (both topics at 5), CG = M − U = 0.
    const complete = issueCase([], { k1: located(5), k2: located(5) });
    const [cg0] = pairMetricRows(complete.pair, DEFAULT_METRIC_PARAMS);
    expect(cg0.metric).toBe("CG");
    expect(cg0.value).toBe(0);
    // What the old reading gave: k2 held at s0 = 1 makes U = (1 + 0) / 2 = 0.5, so CG = (1 − 0.5) / (1 − 0.5) = 1.0.
    expect(consensusGain(0.5, 1).cg).toBe(1);

    const failed = issueCase([rejected], { k1: located(5) });
    const rows = pairMetricRows(failed.pair, DEFAULT_METRIC_PARAMS);
    expect(rows.map((r) => r.metric)).toEqual(["CG"]);
    const [cg] = rows;
    expect(cg.value).toBeNull();
    expect(cg.detail).toEqual({
      incomplete: true,
      reason: "incomplete judge output of u (1 recorded error; failed topics: k2)",
      failedTopics: ["k2"],
      evaluationErrors: 1,
      incompleteRuns: ["u"],
      backbone: "j",
      mediatedRunId: "m",
      unmediatedRunId: "u",
      mediatedEvaluationId: "m:topic-localized:j",
      unmediatedEvaluationId: "u:topic-localized:j",
    });
    expect(cg.params).toEqual({ s0: 1 });
    expect(explainMetric(cg)).toBe("incomplete judge output of u (1 recorded error; failed topics: k2)");
    // Counted as missing in a cell, never as a value.
    expect(aggregateCell([cg0.value, cg.value])).toEqual({ mean: 0, percent: 0, used: 1, skipped: 1 });
  });

  it("gives IT and IE of a run with a failed topic null, and its complete pair partner's CG too", () => {
    const mediated = runData({
      runId: "m",
      topicIds: TOPICS,
      evaluations: [topicEvaluation("m", { k1: located(4) }, [rejected])],
    });
    const rows = runMetricRows(mediated, DEFAULT_METRIC_PARAMS).filter((r) => r.evaluationId !== "");
    expect(rows.map((r) => [r.metric, r.value])).toEqual([
      ["IT", null],
      ["IE", null],
    ]);
    for (const row of rows)
      expect(row.detail).toEqual({
        incomplete: true,
        reason: "incomplete judge output (1 recorded error; failed topics: k2)",
        failedTopics: ["k2"],
        evaluationErrors: 1,
        incompleteRuns: ["m"],
      });
    // The run's own metrics (IF, FI) do not read C and keep their values.
    expect(
      runMetricRows(mediated, DEFAULT_METRIC_PARAMS)
        .filter((r) => r.evaluationId === "")
        .map((r) => [r.metric, r.value]),
    ).toEqual([
      ["IF", 2 / 6],
      ["FI", 3 / 8],
    ]);
    const unmediated = runData({
      runId: "u",
      mediated: false,
      topicIds: TOPICS,
      evaluations: [topicEvaluation("u", { k1: located(2), k2: located(2) })],
    });
    const [cg] = pairMetricRows({ id: "p", mediated, unmediated }, DEFAULT_METRIC_PARAMS);
    expect(cg.value).toBeNull();
    expect(cg.detail).toMatchObject({
      incomplete: true,
      incompleteRuns: ["m"],
      failedTopics: ["k2"],
      evaluationErrors: 1,
    });
  });

  it("counts a topic missing from the output, or named by an error, as failed, and any error as incomplete", () => {
    const evaluation = (output: Record<string, TopicJudgeOutput>, errors: StoredEvaluation["errors"] = []) =>
      topicEvaluation("r", output, errors);
    expect(failedTopicsOf(TOPICS, evaluation({ k1: located(3) }))).toEqual(["k2"]);
    expect(
      failedTopicsOf(TOPICS, evaluation({ k1: located(3), k2: located(3) }, [{ topic_id: "k1", message: "x" }])),
    ).toEqual(["k1"]);
    expect(failedTopicsOf(TOPICS, evaluation({ k1: located(3), k2: located(3) }))).toEqual([]);
    // A topic missing without an error (an imported output) is failed; an error naming no topic still makes the run
    // incomplete.
    const missing = runMetricRows(
      runData({ topicIds: TOPICS, evaluations: [evaluation({ k1: located(3) })] }),
      DEFAULT_METRIC_PARAMS,
    ).find((r) => r.metric === "IT")!;
    expect(missing).toMatchObject({
      value: null,
      detail: {
        incomplete: true,
        failedTopics: ["k2"],
        evaluationErrors: 0,
        reason: "incomplete judge output (0 recorded errors; failed topics: k2)",
      },
    });
    const unnamed = runMetricRows(
      runData({
        topicIds: TOPICS,
        evaluations: [evaluation({ k1: located(3), k2: located(3) }, [{ message: "judge timed out" }])],
      }),
      DEFAULT_METRIC_PARAMS,
    ).find((r) => r.metric === "IE")!;
    expect(unnamed).toMatchObject({
      value: null,
      detail: {
        incomplete: true,
        failedTopics: [],
        evaluationErrors: 1,
        reason: "incomplete judge output (1 recorded error)",
      },
    });
  });

  it("gives CC, TLE, RL and ME null when the per-turn evaluation recorded an error", () => {
    const flat = (v: number) => ({
      shared_goals: v,
      common_understanding: v,
      agreement_on_terms: v,
      tone_and_willingness: v,
      shared_decision_making: v,
    });
    const output: PerTurnOutput = { initial: [{ pair: ["A", "B"], topic: "k1", dimensions: flat(0.5) }], turns: [] };
    const perTurn = (errors: StoredEvaluation["errors"]): StoredEvaluation => ({
      id: "r1:per-turn:b",
      method: "per-turn",
      backbone: "b",
      output,
      errors,
    });
    const failed = runMetricRows(
      runData({
        evaluations: [perTurn([{ message: "turn 4: attitude extraction failed (carries forward): timeout" }])],
      }),
      DEFAULT_METRIC_PARAMS,
    ).filter((r) => r.evaluationId !== "");
    expect(failed.map((r) => [r.metric, r.value])).toEqual([
      ["CC", null],
      ["TLE", null],
      ["RL", null],
      ["ME", null],
    ]);
    for (const row of failed)
      expect(row.detail).toEqual({
        incomplete: true,
        reason: "incomplete judge output (1 recorded error)",
        failedTopics: [],
        evaluationErrors: 1,
        incompleteRuns: ["r1"],
      });
    // The same output without the error is computed: G is flat at 0.5, so CC = 0.
    const complete = runMetricRows(runData({ evaluations: [perTurn([])] }), DEFAULT_METRIC_PARAMS).find(
      (r) => r.metric === "CC",
    )!;
    expect(complete.value).toBe(0);
    expect(complete.detail.incomplete).toBeUndefined();
  });
});

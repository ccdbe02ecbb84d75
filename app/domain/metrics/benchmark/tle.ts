import { defineMetric, METRIC_UNITS, reasonOf } from "../descriptor.ts";
import { topicLevelEfficiency, turnsMentioning } from "../topic-level-efficiency.ts";
import { referenceTopicLevelEfficiency } from "../promediate-reference/tle.ts";
import { definitionsParam, evaluationQuality, REFERENCE_DETAIL } from "./shared-params.ts";

/** Topic-level efficiency: each mentioned topic's gain in G_k per mention (spec: "ProMediate per-turn baseline"). */
export const tle = defineMetric({
  id: "TLE",
  // 2 (issue 28): n_k counts the mediator turns that name k too; 1 counted party turns only.
  version: 2,
  label: "Topic-level efficiency",
  unit: METRIC_UNITS.agreementChange,
  level: "run",
  input: "per-turn",
  params: { definitions: definitionsParam },
  compute({ evaluation, trajectory }, params) {
    const mentioning = turnsMentioning(trajectory.mentions, trajectory.mediatorTargets);
    if (params.definitions === "promediate-reference") {
      const series = trajectory.overallTopicConsensus ?? trajectory.topicConsensus;
      const ref = referenceTopicLevelEfficiency(series, mentioning);
      return {
        value: ref.value,
        detail: { ...REFERENCE_DETAIL, ...ref.detail, ...evaluationQuality(evaluation.errors) },
      };
    }
    const tle = topicLevelEfficiency(trajectory.topicConsensus, mentioning);
    return {
      value: tle.tle,
      detail: {
        topicsUsed: tle.topicsUsed,
        topicsUnmentioned: tle.topicsUnmentioned,
        perTopic: tle.perTopic,
        ...evaluationQuality(evaluation.errors),
        ...reasonOf(tle.tle, tle.reason),
      },
    };
  },
  explain: (d) =>
    d.definitions === REFERENCE_DETAIL.definitions
      ? [`${d.topicsCountedZero} topics with under 5 mentions counted 0`]
      : [`${d.topicsUsed} topics mentioned, ${d.topicsUnmentioned} never`],
});

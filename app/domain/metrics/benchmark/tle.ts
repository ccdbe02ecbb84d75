import { defineMetric, METRIC_UNITS, reasonOf } from "../descriptor.ts";
import { topicLevelEfficiency, turnsMentioning } from "../topic-level-efficiency.ts";
import { evaluationQuality } from "./shared-params.ts";

/** Topic-level efficiency: each mentioned topic's gain in G_k per mention (spec: "ProMediate per-turn baseline"). */
export const tle = defineMetric({
  id: "TLE",
  // 2 (issue 28): n_k counts the mediator turns that name k too; 1 counted party turns only.
  version: 2,
  label: "Topic-level efficiency",
  unit: METRIC_UNITS.agreementChange,
  level: "run",
  input: "per-turn",
  params: {},
  compute({ evaluation, trajectory }) {
    const tle = topicLevelEfficiency(
      trajectory.topicConsensus,
      turnsMentioning(trajectory.mentions, trajectory.mediatorTargets),
    );
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
  explain: (d) => [`${d.topicsUsed} topics mentioned, ${d.topicsUnmentioned} never`],
});

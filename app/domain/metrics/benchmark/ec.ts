import { emotionConsensusCorrelation } from "../../emotion/measures.ts";
import { defineMetric, detailNumber, METRIC_UNITS, reasonOf } from "../descriptor.ts";
import { detailSourceLabel, emotionSourceDetail } from "./emotion-detail.ts";
import { s0Param } from "./shared-params.ts";

/**
 * Emotion–consensus correlation: Pearson r of Ē[t] and C[t] over the turns where Ē is defined
 * (docs/metrics-emotion.md).
 */
export const ec = defineMetric({
  id: "EC",
  label: "Emotion–consensus correlation",
  unit: METRIC_UNITS.correlation,
  level: "run",
  input: "emotion-consensus",
  params: { s0: s0Param },
  compute({ trajectory, group, topic }) {
    const ec = emotionConsensusCorrelation(group, topic.consensus);
    return {
      value: ec.value,
      detail: {
        ...emotionSourceDetail(trajectory.source),
        topicBackbone: topic.evaluation.backbone,
        n: ec.n,
        p: ec.p,
        ...reasonOf(ec.value, ec.reason),
      },
    };
  },
  // The run page files EC under its topic judge, so the row names its emotion source.
  explain: (d) => {
    const source = detailSourceLabel(d);
    const n = detailNumber(d.n);
    return [`emotion from ${source ?? "?"}${n === null ? "" : ` over ${n} turns`}`];
  },
});

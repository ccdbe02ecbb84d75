import { finalEmotion } from "../../emotion/measures.ts";
import { defineMetric, METRIC_UNITS, reasonOf } from "../descriptor.ts";
import { emotionSourceDetail } from "./emotion-detail.ts";

/** Final emotion: Ē[T], the mean of the parties' last scores (docs/metrics-emotion.md). */
export const ef = defineMetric({
  id: "EF",
  label: "Final emotion",
  unit: METRIC_UNITS.percent,
  level: "run",
  input: "emotion",
  params: {},
  compute({ trajectory, group }) {
    const ef = finalEmotion(group, trajectory.parties);
    return {
      value: ef.value,
      detail: { ...emotionSourceDetail(trajectory.source), perParty: ef.perParty, ...reasonOf(ef.value, ef.reason) },
    };
  },
  explain: () => [],
});

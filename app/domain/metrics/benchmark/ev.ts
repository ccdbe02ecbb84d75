import { volatility } from "../../emotion/measures.ts";
import { defineMetric, METRIC_UNITS, reasonOf } from "../descriptor.ts";
import { emotionSourceDetail } from "./emotion-detail.ts";

/**
 * Emotional volatility: the mean over parties of their mean absolute change between consecutive reports, /100
 * (docs/metrics-emotion.md).
 */
export const ev = defineMetric({
  id: "EV",
  label: "Emotional volatility",
  unit: METRIC_UNITS.percent,
  level: "run",
  input: "emotion",
  params: {},
  compute({ trajectory }) {
    const ev = volatility(trajectory.parties);
    return {
      value: ev.value,
      detail: { ...emotionSourceDetail(trajectory.source), perParty: ev.perParty, ...reasonOf(ev.value, ev.reason) },
    };
  },
  explain: (d, value) => {
    const perParty = (d.perParty ?? {}) as Record<string, number | null>;
    const left = Object.entries(perParty)
      .filter(([, v]) => v === null)
      .map(([p]) => p);
    return value === null || left.length === 0 ? [] : [`without ${left.join(", ")} (fewer than two reports)`];
  },
});

import { z } from "zod";
import { DEFAULT_REPAIR_HORIZON, emotionalRepair } from "../../emotion/measures.ts";
import { defineMetric, detailNumber, METRIC_UNITS, reasonOf } from "../descriptor.ts";
import { emotionSourceDetail } from "./emotion-detail.ts";

/**
 * Emotional repair: the gap-normalised change of the group's emotion Ē over h_E turns after each mediator turn
 * (docs/metrics-emotion.md).
 */
export const er = defineMetric({
  id: "ER",
  label: "Emotional repair",
  unit: METRIC_UNITS.percent,
  level: "intervention",
  input: "emotion",
  mediatedOnly: true,
  params: {
    hE: {
      schema: z.number().int().min(1).default(DEFAULT_REPAIR_HORIZON),
      symbol: "h_E",
      doc: "emotional-repair horizon in turns",
    },
  },
  compute({ run, trajectory, group }, params) {
    const T = run.speakers.length;
    const er = emotionalRepair(group, run.mediatorTurns, { horizon: params.hE });
    return {
      value: er.er,
      detail: {
        ...emotionSourceDetail(trajectory.source),
        interventions: er.interventions,
        beforeAllReported: er.beforeAllReported,
        truncatedHorizon: er.truncatedHorizon,
        // p = m / T per intervention, as IE stores it.
        perIntervention: er.perIntervention.map((p) => ({
          m: p.m,
          progress: p.m / T,
          before: p.before,
          afterTurn: p.afterTurn,
          after: p.after,
          er: p.er,
        })),
        ...reasonOf(er.er, er.reason),
      },
    };
  },
  explain: (d, value) => {
    if (value === null) return [];
    const used = (detailNumber(d.interventions) ?? 0) - (detailNumber(d.beforeAllReported) ?? 0);
    const parts = [`${used} of ${d.interventions} interventions after every party had reported`];
    if (detailNumber(d.truncatedHorizon)) parts.push(`${d.truncatedHorizon} with a cut-short horizon`);
    return [parts.join(", ")];
  },
});

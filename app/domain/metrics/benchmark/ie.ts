import { z } from "zod";
import { defineMetric, detailNumber, METRIC_UNITS, reasonOf } from "../descriptor.ts";
import { DEFAULT_EFFECTIVENESS_HORIZON, interventionEffectiveness } from "../intervention-effectiveness.ts";
import { evaluationQuality, s0Param } from "./shared-params.ts";

/** Intervention effectiveness: the normalized lift of C after each mediator turn (spec: "SoCRATES metrics"). */
export const ie = defineMetric({
  id: "IE",
  label: "Intervention effectiveness",
  unit: METRIC_UNITS.percent,
  level: "intervention",
  input: "topic-localized",
  mediatedOnly: true,
  params: {
    s0: s0Param,
    h: { schema: z.number().int().min(1).default(DEFAULT_EFFECTIVENESS_HORIZON), symbol: "h", doc: "horizon in turns" },
  },
  compute({ run, evaluation, consensus }, params) {
    const T = run.speakers.length;
    const ie = interventionEffectiveness(consensus, run.mediatorTurns, { horizon: params.h });
    return {
      value: ie.ie,
      detail: {
        interventions: ie.interventions,
        truncatedHorizon: ie.truncatedHorizon,
        // p = m / T per intervention: the input of the timing profile.
        perIntervention: ie.perIntervention.map((p) => ({
          m: p.m,
          progress: p.m / T,
          before: p.before,
          afterTurn: p.afterTurn,
          after: p.after,
          ie: p.ie,
        })),
        ...evaluationQuality(evaluation.errors),
        ...reasonOf(ie.ie, ie.reason),
      },
    };
  },
  explain: (d, value) =>
    value === null
      ? []
      : [
          `${d.interventions} interventions${detailNumber(d.truncatedHorizon) ? `, ${d.truncatedHorizon} with a cut-short horizon` : ""}`,
        ],
});

import { z } from "zod";
import { defineMetric, METRIC_UNITS, reasonOf } from "../descriptor.ts";
import {
  DEFAULT_TIMELINESS_DELTA,
  DEFAULT_TIMELINESS_WINDOW,
  interventionTimeliness,
} from "../intervention-timeliness.ts";
import { evaluationQuality, s0Param } from "./shared-params.ts";

/** Intervention timeliness: how soon the mediator answers a fall of C (spec: "SoCRATES metrics"). */
export const it = defineMetric({
  id: "IT",
  label: "Intervention timeliness",
  unit: METRIC_UNITS.percent,
  level: "run",
  input: "topic-localized",
  mediatedOnly: true,
  params: {
    s0: s0Param,
    delta: {
      schema: z.number().min(0).max(1).default(DEFAULT_TIMELINESS_DELTA),
      symbol: "δ",
      doc: "minimum fall of C that makes a drop event",
    },
    W: {
      schema: z.number().int().min(1).default(DEFAULT_TIMELINESS_WINDOW),
      symbol: "W",
      doc: "response window in turns",
    },
  },
  compute({ run, evaluation, consensus }, params) {
    const it = interventionTimeliness(consensus, run.mediatorTurns, { delta: params.delta, window: params.W });
    return {
      value: it.it,
      detail: {
        events: it.events.length,
        counted: it.counted,
        censored: it.censored,
        interventions: it.interventions,
        perEvent: it.events.map((e) => ({
          t: e.t,
          responseTurn: e.responseTurn,
          d: e.d,
          score: e.score,
          censored: e.censored,
        })),
        ...evaluationQuality(evaluation.errors),
        ...reasonOf(it.it, it.reason),
      },
    };
  },
  explain: (d) => [`${d.counted} of ${d.events} drop events counted, ${d.censored} censored`],
});

import { defineMetric, METRIC_UNITS, reasonOf } from "../descriptor.ts";
import { firstIntervention } from "../intervention-frequency.ts";

/** First intervention: how far into the run the mediator first speaks (spec: "SoCRATES metrics"). */
export const fi = defineMetric({
  id: "FI",
  label: "First intervention",
  unit: METRIC_UNITS.percent,
  level: "run",
  input: "run",
  mediatedOnly: true,
  params: {},
  compute({ run }) {
    if (run.speakers.length === 0) return null;
    const first = firstIntervention(run.mediatorTurns, run.speakers.length);
    return {
      value: first.fi,
      detail: {
        firstTurn: first.firstTurn,
        totalTurns: first.lastTurn,
        interventions: first.interventions,
        ...reasonOf(first.fi, first.reason),
      },
    };
  },
  explain: (d) => (d.firstTurn !== null ? [`turn ${d.firstTurn} of ${d.totalTurns}`] : []),
});

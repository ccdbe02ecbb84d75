import { defineMetric, METRIC_UNITS, reasonOf } from "../descriptor.ts";
import { interventionFrequency } from "../intervention-frequency.ts";

/** Intervention frequency: mediator turns per party turn (spec: "SoCRATES metrics"). */
export const ifMetric = defineMetric({
  id: "IF",
  label: "Intervention frequency",
  unit: METRIC_UNITS.percent,
  level: "run",
  input: "run",
  mediatedOnly: true,
  params: {},
  compute({ run }) {
    const frequency = interventionFrequency(run.mediatorTurns.length, run.partyTurns);
    return {
      value: frequency.frequency,
      detail: {
        mediatorTurns: frequency.mediatorTurns,
        partyTurns: frequency.partyTurns,
        ...reasonOf(frequency.frequency, frequency.reason),
      },
    };
  },
  explain: (d) => [`${d.mediatorTurns} mediator / ${d.partyTurns} party turns`],
});

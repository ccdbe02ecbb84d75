import { defineMetric, METRIC_UNITS, reasonOf } from "../descriptor.ts";
import { mediatorIntelligence } from "../mediator-intelligence.ts";
import { referenceMediatorIntelligence } from "../promediate-reference/mi.ts";
import { definitionsParam, REFERENCE_DETAIL } from "./shared-params.ts";

/**
 * Mediator intelligence: a judge's mean applicable 1–5 score over the interventions (spec: "ProMediate per-turn
 * baseline").
 */
export const mi = defineMetric({
  id: "MI",
  label: "Mediator intelligence (1–5)",
  unit: METRIC_UNITS.fivePoint,
  level: "intervention",
  input: "mi-judgments",
  mediatedOnly: true,
  params: { definitions: definitionsParam },
  compute({ run, backbone, judgments }, params) {
    if (params.definitions === "promediate-reference") {
      const ref = referenceMediatorIntelligence(judgments);
      return { value: ref.value, detail: { ...REFERENCE_DETAIL, backbone, ...ref.detail } };
    }
    const mi = mediatorIntelligence(
      judgments.map((j) => [
        j.perceptionAlignment,
        j.emotionalDynamics,
        j.cognitiveChallenges,
        j.communicationBreakdowns,
      ]),
    );
    return {
      value: mi.mi,
      detail: {
        backbone,
        interventions: mi.interventions,
        mediatorTurns: run.mediatorTurns.length,
        unjudged: run.mediatorTurns.filter((m) => !judgments.some((j) => j.turnId === m)).length,
        applicableScores: mi.applicableScores,
        notApplicableScores: mi.notApplicableScores,
        interventionsWithoutScores: mi.interventionsWithoutScores,
        perDimension: mi.perDimension,
        ...reasonOf(mi.mi, mi.reason),
      },
    };
  },
  explain: (d) =>
    d.definitions === REFERENCE_DETAIL.definitions
      ? [`${d.interventions} interventions judged by ${d.backbone}; ${d.countedZero} all n/a, counted 0`]
      : d.interventions === undefined
        ? []
        : [
            `${d.interventions} of ${d.mediatorTurns} interventions judged by ${d.backbone}; ${d.notApplicableScores} scores not applicable`,
          ],
  placeholder: (run) => `not judged yet (npx socrates evaluate --method mi --run ${run.id}, then npx socrates metrics)`,
});

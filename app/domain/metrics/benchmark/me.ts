import { z } from "zod";
import { defineMetric, detailNumber, METRIC_UNITS, reasonOf } from "../descriptor.ts";
import { DEFAULT_ME_SPAN, mediatorEffectiveness } from "../mediator-effectiveness.ts";
import { referenceMediatorEffectiveness } from "../promediate-reference/me.ts";
import { definitionsParam, evaluationQuality, REFERENCE_DETAIL } from "./shared-params.ts";

/** Mediator effectiveness: slope of G_k after minus before each intervention (spec: "ProMediate per-turn baseline"). */
export const me = defineMetric({
  id: "ME",
  label: "Mediator effectiveness",
  unit: METRIC_UNITS.agreementChange,
  level: "intervention",
  input: "per-turn",
  mediatedOnly: true,
  params: {
    meSpan: {
      schema: z.number().int().min(1).default(DEFAULT_ME_SPAN),
      symbol: "ME span",
      doc: "turns on each side of an intervention for the slopes",
    },
    definitions: definitionsParam,
  },
  compute({ run, evaluation, trajectory }, params) {
    const T = run.speakers.length;
    if (T === 0) return null;
    if (params.definitions === "promediate-reference") {
      const series = trajectory.overallTopicConsensus ?? trajectory.topicConsensus;
      const ref = referenceMediatorEffectiveness(series, trajectory.mediatorTargets, T, params.meSpan);
      return {
        value: ref.value,
        detail: { ...REFERENCE_DETAIL, ...ref.detail, ...evaluationQuality(evaluation.errors) },
      };
    }
    const targets = trajectory.mediatorTargets.map((m) => ({ turn: m.turn, targetTopics: m.topics }));
    const me = mediatorEffectiveness(trajectory.topicConsensus, targets, T, { span: params.meSpan });
    return {
      value: me.me,
      detail: {
        interventions: me.interventions,
        interventionsUsed: me.interventionsUsed,
        interventionsSkipped: me.interventionsSkipped,
        topicPairs: me.topicPairs,
        topicPairsSkipped: me.topicPairsSkipped,
        perIntervention: me.perIntervention.map((p) => ({ turn: p.turn, me: p.me, topics: p.topics })),
        ...evaluationQuality(evaluation.errors),
        ...reasonOf(me.me, me.reason),
      },
    };
  },
  explain: (d) =>
    d.definitions === REFERENCE_DETAIL.definitions
      ? [`${d.interventionsUsed} of ${d.interventions} interventions away from the ends`]
      : detailNumber(d.interventions)
        ? [`${d.interventionsUsed} of ${d.interventions} interventions with slopes on both sides`]
        : [],
});

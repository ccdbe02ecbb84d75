import { consensusGain } from "../consensus-gain.ts";
import { defineMetric, detailPercent, METRIC_UNITS } from "../descriptor.ts";
import { s0Param } from "./shared-params.ts";

/**
 * Consensus gain: the mediated run's final C over its unmediated twin's, under one judge (spec: "SoCRATES metrics").
 */
export const cg = defineMetric({
  id: "CG",
  label: "Consensus gain",
  unit: METRIC_UNITS.percent,
  level: "pair",
  input: "matched-pair",
  params: { s0: s0Param },
  compute({ pair, backbone, mediated, unmediated }) {
    const last = (c: number[]) => c[c.length - 1];
    const cg = consensusGain(last(unmediated.consensus), last(mediated.consensus));
    return {
      value: cg.cg,
      detail: {
        backbone,
        mediated: cg.mediated,
        unmediated: cg.unmediated,
        normalized: cg.normalized,
        mediatedRunId: pair.mediated.runId,
        unmediatedRunId: pair.unmediated.runId,
        mediatedEvaluationId: mediated.evaluation.id,
        unmediatedEvaluationId: unmediated.evaluation.id,
        evaluationErrors: mediated.evaluation.errors.length + unmediated.evaluation.errors.length,
      },
    };
  },
  explain: (d) => [
    `matched pair: final consensus ${detailPercent(d.mediated)} with the mediator, ${detailPercent(d.unmediated)} without`,
  ],
});

import { z } from "zod";
import { consensusChange, DEFAULT_CC_MAX_WINDOW } from "../consensus-change.ts";
import { defineMetric, METRIC_UNITS, reasonOf } from "../descriptor.ts";
import { referenceConsensusChange } from "../promediate-reference/cc.ts";
import { definitionsParam, evaluationQuality, REFERENCE_DETAIL } from "./shared-params.ts";

/** Consensus change: mean G over the last w turns minus over the first w (spec: "ProMediate per-turn baseline"). */
export const cc = defineMetric({
  id: "CC",
  label: "Consensus change",
  unit: METRIC_UNITS.agreementChange,
  level: "run",
  input: "per-turn",
  params: {
    wMax: {
      schema: z.number().int().min(1).default(DEFAULT_CC_MAX_WINDOW),
      symbol: "w max",
      doc: "upper bound on the window, w = min(wMax, ⌊T/2⌋); the reference definitions' fixed window",
    },
    definitions: definitionsParam,
  },
  compute({ evaluation, trajectory }, params) {
    if (params.definitions === "promediate-reference") {
      const ref = referenceConsensusChange(trajectory.overallConsensus ?? trajectory.consensus, params.wMax);
      return {
        value: ref.value,
        detail: { ...REFERENCE_DETAIL, ...ref.detail, ...evaluationQuality(evaluation.errors) },
      };
    }
    const cc = consensusChange(trajectory.consensus, { maxWindow: params.wMax });
    return {
      value: cc.cc,
      detail: {
        w: cc.w,
        firstMean: cc.firstMean,
        lastMean: cc.lastMean,
        totalTurns: cc.lastTurn,
        ...evaluationQuality(evaluation.errors),
        ...reasonOf(cc.cc, cc.reason),
      },
    };
  },
  explain: (d, value) => {
    if (value === null) return [];
    if (d.definitions === REFERENCE_DETAIL.definitions)
      return [`windows of ${d.window} scores from G[0]${d.sharedScores ? `, ${d.sharedScores} shared` : ""}`];
    return [`windows of w = ${d.w} turns`];
  },
});

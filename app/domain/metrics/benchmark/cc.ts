import { z } from "zod";
import { consensusChange, DEFAULT_CC_MAX_WINDOW } from "../consensus-change.ts";
import { defineMetric, METRIC_UNITS, reasonOf } from "../descriptor.ts";
import { evaluationQuality } from "./shared-params.ts";

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
      doc: "upper bound on the window, w = min(wMax, ⌊T/2⌋)",
    },
  },
  compute({ evaluation, trajectory }, params) {
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
  explain: (d, value) => (value === null ? [] : [`windows of w = ${d.w} turns`]),
});

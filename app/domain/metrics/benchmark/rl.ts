import { z } from "zod";
import { defineMetric, detailNumber, detailPercent, METRIC_UNITS, reasonOf } from "../descriptor.ts";
import { DEFAULT_RL_TAU, DEFAULT_RL_WINDOW, responseLatency } from "../response-latency.ts";
import { referenceResponseLatency } from "../promediate-reference/rl.ts";
import { definitionsParam, evaluationQuality, REFERENCE_DETAIL } from "./shared-params.ts";

/** Response latency: turns from a fall of G to the mediator's next turn (spec: "ProMediate per-turn baseline"). */
export const rl = defineMetric({
  id: "RL",
  // 2 (issue 28): latency from the drop turn u, starts sharing u merged; 1 counted from each start t.
  version: 2,
  label: "Response latency (turns)",
  unit: METRIC_UNITS.turns,
  level: "run",
  input: "per-turn",
  mediatedOnly: true,
  params: {
    tau: { schema: z.number().min(0).max(1).default(DEFAULT_RL_TAU), symbol: "τ", doc: "G must fall by more than τ …" },
    rlWindow: {
      schema: z.number().int().min(1).default(DEFAULT_RL_WINDOW),
      symbol: "RL window",
      doc: "… within this many turns (the reference definitions: exactly this many turns apart)",
    },
    definitions: definitionsParam,
  },
  compute({ run, evaluation, trajectory }, params) {
    if (params.definitions === "promediate-reference") {
      const consensus = trajectory.overallConsensus ?? trajectory.consensus;
      const ref = referenceResponseLatency(consensus, run.mediatorTurns, params.tau, params.rlWindow);
      return {
        value: ref.value,
        detail: { ...REFERENCE_DETAIL, ...ref.detail, ...evaluationQuality(evaluation.errors) },
      };
    }
    const rl = responseLatency(
      trajectory.consensus,
      run.mediatorTurns,
      { tau: params.tau, window: params.rlWindow },
      run.decisionSeconds,
    );
    return {
      value: rl.meanLatency,
      detail: {
        events: rl.eventCount,
        responded: rl.responded,
        unresponded: rl.unresponded,
        unrespondedShare: rl.unrespondedShare,
        meanDecisionSeconds: rl.meanDecisionSeconds,
        decisionSamples: rl.decisionSamples,
        // JSON has no Infinity: an event the mediator never answered has latency null.
        perEvent: rl.events.map((e) => ({
          t: e.t,
          u: e.u,
          starts: e.starts,
          latency: Number.isFinite(e.latency) ? e.latency : null,
        })),
        ...evaluationQuality(evaluation.errors),
        ...reasonOf(rl.meanLatency, rl.reason),
      },
    };
  },
  explain(d) {
    if (d.definitions === REFERENCE_DETAIL.definitions) return [`${d.events} drop events, ${d.responded} answered`];
    const seconds = detailNumber(d.meanDecisionSeconds);
    return [
      `${d.events} drop events, ${detailPercent(d.unrespondedShare)} unanswered`,
      ...(seconds !== null ? [`decisions take ${seconds.toFixed(1)} s on average`] : []),
    ];
  },
});

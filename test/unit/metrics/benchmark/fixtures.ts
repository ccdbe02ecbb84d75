/** A small run for descriptor tests: parties A and B, a mediator at turns 3 and 6 of 8. */
import type { MetricDescriptor, ParamSpecs, ParamValues } from "../../../../app/domain/metrics/descriptor.ts";
import type { MetricInputKind, MetricInputs, RunData } from "../../../../app/domain/metrics/metric-inputs.ts";
import { DEFAULT_METRIC_PARAMS, paramsOf } from "../../../../app/domain/metrics/metric-params.ts";

export function runData(overrides: Partial<RunData> = {}): RunData {
  const speakers = ["A", "B", "MEDIATOR", "A", "B", "MEDIATOR", "A", "B"];
  return {
    runId: "r1",
    mediated: true,
    topicIds: ["k1"],
    partyIds: ["A", "B"],
    speakers,
    partyTurns: 6,
    mediatorTurns: [3, 6],
    decisionSeconds: [],
    evaluations: [],
    judgments: [],
    emotions: [],
    ...overrides,
  };
}

/** A descriptor's result on one input with the default parameters, as the runner would call it. */
export function computeWithDefaults<K extends MetricInputKind>(
  metric: MetricDescriptor<string, K, ParamSpecs>,
  input: MetricInputs[K],
) {
  return metric.compute(input, paramsOf(metric, DEFAULT_METRIC_PARAMS) as ParamValues<ParamSpecs>);
}

/**
 * Builds the stored rows of every registered metric from a run's (or pair's) loaded data:
 * each input is built once, then every metric that reads that kind of input adds its row.
 * A metric that is undefined for its subject has value null and a reason in detail; on an
 * incomplete input (incomplete-input.ts) every metric has value null and `detail.incomplete`.
 * A mediator metric (`mediatedOnly`) has no row for an unmediated run.
 */
import type { MetricDescriptor, MetricResult, ParamValues, ParamSpecs } from "./descriptor.ts";
import {
  pairInputs,
  runInputs,
  type MetricInputItem,
  type MetricSubject,
  type PairData,
  type RunData,
} from "./metric-inputs.ts";
import { paramsOf, type MetricParams } from "./metric-params.ts";
import { METRICS, type MetricId } from "./registry.ts";

export interface MetricRow extends MetricSubject {
  metric: MetricId;
  value: number | null;
  detail: Record<string, unknown>;
  params: Record<string, unknown>;
  /** The metric's definition version the value was computed by (descriptor `version`). */
  definitionVersion: number;
}

function resultOf(
  metric: MetricDescriptor,
  item: MetricInputItem,
  params: ParamValues<ParamSpecs>,
): MetricResult | null {
  if (item.incomplete) return { value: null, detail: item.incomplete };
  return metric.compute(item.input, params);
}

function rowsOf(items: MetricInputItem[], params: MetricParams, mediated: boolean): MetricRow[] {
  const rows: MetricRow[] = [];
  for (const item of items) {
    for (const metric of METRICS as readonly MetricDescriptor[]) {
      if (metric.input !== item.kind || (metric.mediatedOnly && !mediated)) continue;
      const own = paramsOf(metric, params);
      const result = resultOf(metric, item, own as ParamValues<ParamSpecs>);
      if (result)
        rows.push({
          ...item.subject,
          metric: metric.id as MetricId,
          value: result.value,
          detail: result.detail,
          params: own,
          definitionVersion: metric.version ?? 1,
        });
    }
  }
  return rows;
}

/** Every row for one run (not its pair): the run's own, then per evaluation, then per MI judge. */
export function runMetricRows(data: RunData, params: MetricParams): MetricRow[] {
  return rowsOf(runInputs(data, params.s0), params, data.mediated);
}

/** The rows of a matched pair, one set per judge that scored both runs (a pair always has its mediated run). */
export function pairMetricRows(pair: PairData, params: MetricParams): MetricRow[] {
  return rowsOf(pairInputs(pair, params.s0), params, true);
}

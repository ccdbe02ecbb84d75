/**
 * The parameters of all registered metrics as one schema (`socrates metrics --params`), derived
 * from the descriptors; a parameter several metrics share (s0) is declared once and appears once.
 */
import { z, type ZodTypeAny } from "zod";
import type { ParamSpec, ParamValues } from "./descriptor.ts";
import { formatJsonPath } from "../judge-problems.ts";
import type { MetricDefinitions } from "./benchmark/shared-params.ts";
import { METRICS, type RegisteredMetric } from "./registry.ts";

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type AllParamSpecs = UnionToIntersection<RegisteredMetric["params"]>;
export type MetricParams = ParamValues<AllParamSpecs & Record<never, ParamSpec>>;

/** Every parameter by key, in the order the registry first declares it. */
export const PARAM_SPECS: ReadonlyMap<string, ParamSpec> = (() => {
  const specs = new Map<string, ParamSpec>();
  for (const metric of METRICS) {
    for (const [key, spec] of Object.entries(metric.params) as [string, ParamSpec][]) {
      const known = specs.get(key);
      if (known && known !== spec)
        throw new Error(`metric ${metric.id} declares parameter "${key}" differently from an earlier metric`);
      specs.set(key, spec);
    }
  }
  return specs;
})();

export const metricParamsSchema = z
  .object(Object.fromEntries([...PARAM_SPECS].map(([key, spec]) => [key, spec.schema])) as Record<string, ZodTypeAny>)
  .strict() as unknown as z.ZodType<MetricParams, z.ZodTypeDef, unknown>;

export const DEFAULT_METRIC_PARAMS: MetricParams = metricParamsSchema.parse({});

export class MetricParamsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MetricParamsError";
  }
}

/** Parses user-supplied overrides; unknown keys and bad values are errors naming the key. */
export function parseMetricParams(value: unknown, source = "params"): MetricParams {
  const result = metricParamsSchema.safeParse(value ?? {});
  if (!result.success) {
    throw new MetricParamsError(
      result.error.issues.map((i) => `${source}: ${formatJsonPath(i.path)}: ${i.message}`).join("\n"),
    );
  }
  return result.data;
}

/** The values of the parameters one metric declares, in its order: what its rows record. */
export function paramsOf(metric: { params: Record<string, ParamSpec> }, params: MetricParams): Record<string, unknown> {
  const all = params as Record<string, unknown>;
  return Object.fromEntries(Object.keys(metric.params).map((key) => [key, all[key]]));
}

/**
 * Whether a stored row was computed with the parameters its metric takes from `params` (a row of a
 * metric no longer registered has none to compare and matches).
 */
export function storedWithParams(
  row: { metric: string; params: Record<string, unknown> },
  params: MetricParams,
): boolean {
  const metric = METRICS.find((m) => m.id === row.metric);
  if (!metric) return true;
  const wanted = paramsOf(metric, params);
  const keys = Object.keys(wanted);
  return (
    keys.length === Object.keys(row.params ?? {}).length &&
    keys.every((k) => JSON.stringify(row.params[k]) === JSON.stringify(wanted[k]))
  );
}

/** The definitions a row was computed by: its params' `definitions` (CC, TLE, RL, ME, MI), else "spec". */
export function rowDefinitions(row: { params: Record<string, unknown> }): MetricDefinitions {
  return row.params?.definitions === "promediate-reference" ? "promediate-reference" : "spec";
}

/**
 * Whether a stored row belongs to the definitions `params` asks for: a row of the other definitions is another
 * reading of the same metric, never a row with "other parameters" to recompute or report. Rows of metrics without
 * the parameter belong to both.
 */
export function ofDefinitions(row: { params: Record<string, unknown> }, params: MetricParams): boolean {
  if (row.params?.definitions === undefined) return true;
  return rowDefinitions(row) === (params as { definitions?: MetricDefinitions }).definitions;
}

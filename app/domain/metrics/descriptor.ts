/**
 * The shape of a benchmark metric (model: inspect_ai's `@metric`): one declared object carrying
 * its id, how it is shown, its parameters and how its stored row is built. The runner, the CLI
 * table and the run page read metrics only through app/domain/metrics/registry.ts.
 */
import type { z, ZodTypeAny } from "zod";
import type { MetricInputs, MetricInputKind } from "./metric-inputs.ts";

/** How a value is printed and described ("IT, IE … are shown ×100"). */
export interface MetricUnit {
  format(value: number): string;
  /** Completes "X is …" / "X and Y are …" in the run page's note on units. */
  note: string;
}

export const METRIC_UNITS = {
  /** SoCRATES metrics on [0, 1] scales, reported ×100 as the spec does. */
  percent: { format: (v: number) => (v * 100).toFixed(1), note: "shown ×100" },
  /** ProMediate consensus deltas, as they are. */
  agreementChange: { format: (v: number) => v.toFixed(3), note: "changes in pairwise agreement (0–1)" },
  turns: { format: (v: number) => v.toFixed(2), note: "in turns" },
  fivePoint: { format: (v: number) => v.toFixed(2), note: "on the judge's 1–5 scale" },
  /** A correlation coefficient in [−1, 1], as it is. */
  correlation: { format: (v: number) => v.toFixed(2), note: "on the correlation scale (−1 to 1)" },
} satisfies Record<string, MetricUnit>;

/**
 * run: one value per run; pair: one per matched pair; intervention: a mean over the run's
 * mediator turns, each of which has its own value in detail.
 */
export type MetricLevel = "run" | "pair" | "intervention";

export interface ParamSpec<T extends ZodTypeAny = ZodTypeAny> {
  /** With its default: `socrates metrics` uses the default unless `--params` overrides it. */
  schema: T;
  /** How the run page names it ("δ", "w max"). */
  symbol: string;
  doc: string;
}

export type ParamSpecs = Record<string, ParamSpec>;
export type ParamValues<P extends ParamSpecs> = { [K in keyof P]: z.output<P[K]["schema"]> };

/** The stored detail of a row: counts behind the value, a reason when it is undefined. */
export type MetricDetail = Record<string, unknown>;

export interface MetricResult {
  value: number | null;
  detail: MetricDetail;
}

export interface MetricDescriptor<
  Id extends string = string,
  K extends MetricInputKind = MetricInputKind,
  P extends ParamSpecs = ParamSpecs,
> {
  id: Id;
  label: string;
  unit: MetricUnit;
  level: MetricLevel;
  /** What it is computed from; the runner hands it one input of this kind at a time. */
  input: K;
  /**
   * A mediator metric: an unmediated run stores no row of it at all (not 0, not null). Spec:
   * "Decisions on readings", mediator metrics belong to mediated runs.
   */
  mediatedOnly?: true;
  /**
   * The definition's version (1 when absent), stored with every row: raise it whenever the
   * arithmetic changes, so rows computed by an earlier definition are never read as this one's
   * (readers skip them and the benchmark recomputes them).
   */
  version?: number;
  /** Its parameters, recorded with each row in this order (shared ones, like s0, are the same object). */
  params: P;
  /** The row's value and detail, or null when the input does not give this metric a row at all. */
  compute(input: MetricInputs[K], params: ParamValues<P>): MetricResult | null;
  /**
   * What a stored value rests on, in short phrases for the run page (reason and judge errors are added for every
   * metric).
   */
  explain(detail: MetricDetail, value: number | null): string[];
  /** A reason to show when a run has no row of this metric yet, or null to show nothing. */
  placeholder?(run: { id: string; mediated: boolean }): string | null;
}

/** Declares a metric; the literal id and parameter types flow into the registry's types. */
export function defineMetric<const Id extends string, K extends MetricInputKind, P extends ParamSpecs>(
  descriptor: MetricDescriptor<Id, K, P>,
): MetricDescriptor<Id, K, P> {
  return descriptor;
}

/** Keeps a reason only when the value is undefined, so detail stays compact. */
export function reasonOf(value: number | null, reason: string | undefined): { reason?: string } {
  return value === null && reason ? { reason } : {};
}

/** For explain(): a stored detail field as a number, or null. */
export const detailNumber = (v: unknown): number | null => (typeof v === "number" ? v : null);
/** For explain(): a stored share as "12.5%", or "—". */
export const detailPercent = (v: unknown): string => (typeof v === "number" ? `${(v * 100).toFixed(1)}%` : "—");

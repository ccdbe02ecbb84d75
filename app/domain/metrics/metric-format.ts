/**
 * How metric values are shown, shared by the run page and the CLI table; every fact (unit,
 * label, parameter symbol, explanation) comes from the metric's descriptor. No I/O, safe in the browser.
 */
import { detailNumber, type MetricDetail, type MetricUnit } from "./descriptor.ts";
import { PARAM_SPECS } from "./metric-params.ts";
import { MEDIATOR_METRIC_IDS, metricById, METRICS } from "./registry.ts";

/** The shown value, or "—" when the metric is undefined for its subject. */
export function formatMetricValue(metric: string, value: number | null): string {
  if (value === null) return "—";
  return metricById(metric)?.unit.format(value) ?? value.toFixed(3);
}

export function metricLabel(metric: string): string | undefined {
  return metricById(metric)?.label;
}

/** The parameters a set of values was computed with, each once: key (for the glossary), symbol and value. */
export function paramList(paramSets: Record<string, unknown>[]): { key: string; symbol: string; value: string }[] {
  const seen = new Map<string, unknown>();
  for (const params of paramSets)
    for (const [key, value] of Object.entries(params)) if (!seen.has(key)) seen.set(key, value);
  return [...seen].map(([key, value]) => ({ key, symbol: PARAM_SPECS.get(key)?.symbol ?? key, value: String(value) }));
}

/** "δ = 0.05 · W = 10": the parameters a set of values was computed with, each once. */
export function formatParams(paramSets: Record<string, unknown>[]): string {
  return paramList(paramSets)
    .map((p) => `${p.symbol} = ${p.value}`)
    .join(" · ");
}

/** "s0=1 δ=0.05 … wMax=10": one line for a terminal; a symbol of several words gives way to the key. */
export function formatParamsInline(params: Record<string, unknown>): string {
  return Object.entries(params)
    .map(([key, value]) => {
      const symbol = PARAM_SPECS.get(key)?.symbol ?? key;
      return `${symbol.includes(" ") ? key : symbol}=${String(value)}`;
    })
    .join(" ");
}

/** A short account of what a stored value rests on: its reason, the metric's own counts, judge errors. */
export function explainMetric(m: { metric: string; value: number | null; detail: MetricDetail }): string {
  const d = m.detail;
  const parts: string[] = [];
  if (m.value === null && typeof d.reason === "string") parts.push(d.reason);
  // An incomplete row was never computed: its reason already names the judge's errors. A stale
  // row's counts belong to an earlier definition: its reason says so, and nothing else is shown.
  if (d.incomplete === true || d.stale === true) return parts.join("; ");
  parts.push(...(metricById(m.metric)?.explain(d, m.value) ?? []));
  if (detailNumber(d.evaluationErrors)) parts.push(`the judge recorded ${d.evaluationErrors} errors`);
  return parts.join("; ");
}

/** The note shown for an unmediated run on the run page and under the CLI table. */
export function unmediatedNote(): string {
  return `${listIds(MEDIATOR_METRIC_IDS)} are mediator metrics: unmediated runs have none.`;
}

/** "IT, IE and CG". */
export function listIds(ids: readonly string[]): string {
  return ids.length === 1 ? ids[0] : `${ids.slice(0, -1).join(", ")} and ${ids[ids.length - 1]}`;
}

/** "IT, IE, IF, FI and CG are shown ×100; …; MI is on the judge's 1–5 scale." */
export function unitsNote(): string {
  const byUnit = new Map<MetricUnit, string[]>();
  for (const m of METRICS) byUnit.set(m.unit, [...(byUnit.get(m.unit) ?? []), m.id]);
  return (
    [...byUnit].map(([unit, ids]) => `${listIds(ids)} ${ids.length === 1 ? "is" : "are"} ${unit.note}`).join("; ") + "."
  );
}

/** The ids shown in a unit ("IT, IE, IF, FI, CG"), for the CLI's note under its table. */
export function metricIdsIn(unit: MetricUnit): string[] {
  return METRICS.filter((m) => m.unit === unit).map((m) => m.id);
}

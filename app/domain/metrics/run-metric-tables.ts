/**
 * The run page's metric tables: one per evaluation (its own rows, plus the matched pair's rows
 * from the same topic-localized judge) and one for the run itself, each in registry order, with
 * a placeholder row for a registered metric that says why a run has none yet.
 */
import type { EvaluationView, MetricView, RunMetrics } from "../catalog-views.ts";
import { MEDIATOR_METRIC_IDS, metricOrder, METRICS } from "./registry.ts";

export interface MetricTable {
  key: string;
  title: string;
  rows: MetricView[];
}

const byOrder = (a: MetricView, b: MetricView) => metricOrder(a.metric) - metricOrder(b.metric);

function evaluationTitle(e: Pick<EvaluationView, "method" | "backbone">): string {
  return `${e.method === "topic-localized" ? "Topic-localized C[t]" : "Per-turn baseline G[t]"} · ${e.backbone}`;
}

/** Pairs are matched on topic-localized judges, so a pair row belongs with that judge's evaluation. */
function pairRowsOf(metrics: RunMetrics, e: Pick<EvaluationView, "method" | "backbone">): MetricView[] {
  if (e.method !== "topic-localized") return [];
  return metrics.pair?.rows.filter((m) => m.detail.backbone === e.backbone) ?? [];
}

function placeholders(run: { id: string; mediated: boolean }, present: MetricView[]): MetricView[] {
  return METRICS.flatMap((m): MetricView[] => {
    if (!m.placeholder || present.some((r) => r.metric === m.id)) return [];
    if (!run.mediated && MEDIATOR_METRIC_IDS.includes(m.id)) return [];
    const reason = m.placeholder(run);
    return reason === null ? [] : [{ metric: m.id, value: null, detail: { reason }, params: {}, computedAt: "" }];
  });
}

export function runMetricTables(
  run: { id: string; mediated: boolean },
  metrics: RunMetrics,
  evaluations: Pick<EvaluationView, "id" | "method" | "backbone">[],
): MetricTable[] {
  const tables = evaluations.map((e) => ({ key: e.id, title: evaluationTitle(e), rows: [...(metrics.evaluations[e.id] ?? []), ...pairRowsOf(metrics, e)].sort(byOrder) }));
  const runRows = [...metrics.run, ...placeholders(run, metrics.run)].sort(byOrder);
  return [...tables, { key: "(run)", title: "The run itself", rows: runRows }].filter((t) => t.rows.length > 0);
}

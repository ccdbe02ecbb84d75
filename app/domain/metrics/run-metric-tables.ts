/**
 * The run page's metric tables: one per evaluation (its own rows, plus the matched pair's rows
 * and the emotion–consensus rows (EC) read against the same topic-localized judge), one per
 * emotion source (ER, EF, EV) and one for the run itself, each in registry order, with a
 * placeholder row for a registered metric that says why a run has none yet.
 */
import type { EvaluationView, MetricView, RunMetrics } from "../catalog-views.ts";
import { detailSourceLabel } from "./benchmark/emotion-detail.ts";
import { rowDefinitions } from "./metric-params.ts";
import { MEDIATOR_METRIC_IDS, metricOrder, METRICS, readsEmotion } from "./registry.ts";

/** A row of the spec's definitions, with the same metric's row of ProMediate's reference definitions when stored. */
export interface MetricTableRow extends MetricView {
  reference?: MetricView;
}

export interface MetricTable {
  key: string;
  title: string;
  rows: MetricTableRow[];
}

const isReference = (m: MetricView) => rowDefinitions(m) === "promediate-reference";

/**
 * Puts each reference row beside its metric's spec row (docs/metrics.md, "ProMediate reference definitions"); a
 * reference row without one gets a row of its own whose spec value is missing.
 */
function besideSpec(rows: MetricView[]): MetricTableRow[] {
  const references = rows.filter(isReference);
  const spec: MetricTableRow[] = rows
    .filter((m) => !isReference(m))
    .map((m) => {
      const reference = references.find((r) => r.metric === m.metric);
      return reference ? { ...m, reference } : m;
    });
  const alone = references
    .filter((r) => !spec.some((m) => m.metric === r.metric))
    .map((r) => ({
      metric: r.metric,
      value: null,
      detail: { reason: "not computed with the spec definitions yet (npx socrates metrics)" },
      params: {},
      computedAt: r.computedAt,
      reference: r,
    }));
  return [...spec, ...alone].sort(byOrder);
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

/** EC rows carry their topic judge's backbone; the other emotion rows belong to their source's table. */
function ecRowsOf(rows: MetricView[], e: Pick<EvaluationView, "method" | "backbone">): MetricView[] {
  if (e.method !== "topic-localized") return [];
  return rows.filter((m) => m.detail.topicBackbone === e.backbone);
}

function emotionTables(rows: MetricView[]): MetricTable[] {
  const bySource = new Map<string, MetricView[]>();
  for (const row of rows) {
    const label = detailSourceLabel(row.detail) ?? "unknown source";
    bySource.set(label, [...(bySource.get(label) ?? []), row]);
  }
  return [...bySource].map(([label, list]) => ({
    key: `(emotion) ${label}`,
    title: `Emotion · ${label}`,
    rows: list.sort(byOrder),
  }));
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
  const emotion = metrics.run.filter((m) => readsEmotion(m.metric));
  const own = metrics.run.filter((m) => !readsEmotion(m.metric));
  const topicBackbones = new Set(evaluations.filter((e) => e.method === "topic-localized").map((e) => e.backbone));
  const filedWithJudge = (m: MetricView) =>
    typeof m.detail.topicBackbone === "string" && topicBackbones.has(m.detail.topicBackbone);
  const tables = evaluations.map((e) => ({
    key: e.id,
    title: evaluationTitle(e),
    rows: besideSpec([...(metrics.evaluations[e.id] ?? []), ...pairRowsOf(metrics, e), ...ecRowsOf(emotion, e)]),
  }));
  const runRows = besideSpec([...own, ...placeholders(run, own)]);
  return [
    ...tables,
    ...emotionTables(emotion.filter((m) => !filedWithJudge(m))),
    { key: "(run)", title: "The run itself", rows: runRows },
  ].filter((t) => t.rows.length > 0);
}

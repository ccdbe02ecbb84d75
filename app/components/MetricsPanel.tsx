import type { EvaluationView, RunMetrics } from "../domain/catalog-views.ts";
import {
  explainMetric,
  formatMetricValue,
  formatParams,
  metricLabel,
  unitsNote,
  unmediatedNote,
} from "../domain/metrics/metric-format.ts";
import { runMetricTables, type MetricTableRow } from "../domain/metrics/run-metric-tables.ts";

/** The value of ProMediate's reference definitions beside the spec's, its explanation on hover. */
function ReferenceCell({ row }: { row: MetricTableRow }) {
  if (!row.reference) return <td className="num muted">·</td>;
  return (
    <td className="num" data-definitions="promediate-reference" title={explainMetric(row.reference)}>
      {formatMetricValue(row.reference.metric, row.reference.value)}
    </td>
  );
}

function MetricTable({ title, rows }: { title: string; rows: MetricTableRow[] }) {
  const params = formatParams(rows.map((r) => r.params));
  const withReference = rows.some((r) => r.reference);
  return (
    <div className="topic">
      <h3>{title}</h3>
      <table className="mini-table">
        {withReference ? (
          <thead>
            <tr>
              <th scope="col">metric</th>
              <th scope="col">spec</th>
              <th scope="col" title="as ProMediate's released evaluation code computes it (docs/metrics.md)">
                ProMediate ref.
              </th>
              <th scope="col" />
            </tr>
          </thead>
        ) : null}
        <tbody>
          {rows.map((m, i) => (
            <tr key={`${m.metric}-${i}`} data-metric={m.metric}>
              <th scope="row" title={metricLabel(m.metric)}>
                {m.metric}
              </th>
              <td className="num" data-definitions={withReference ? "spec" : undefined}>
                <strong>{formatMetricValue(m.metric, m.value)}</strong>
              </td>
              {withReference ? <ReferenceCell row={m} /> : null}
              <td className="muted">{explainMetric(m)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {params ? (
        <p className="muted">
          <small>{params}</small>
        </p>
      ) : null}
    </div>
  );
}

/**
 * The stored metrics of a run, one table per evaluation and one for the run itself (tables and rows from the metric
 * registry).
 */
export function MetricsPanel({
  run,
  metrics,
  evaluations,
}: {
  run: { id: string; mediated: boolean };
  metrics: RunMetrics;
  evaluations: Pick<EvaluationView, "id" | "method" | "backbone">[];
}) {
  if (metrics.computedAt === null) {
    return (
      <section data-testid="metrics">
        <h2>Metrics</h2>
        <p className="empty-state">
          No metrics computed for this run yet. Compute them with <code>npx socrates metrics --run {run.id}</code>.
        </p>
      </section>
    );
  }
  return (
    <section data-testid="metrics">
      <h2>Metrics</h2>
      <div className="topics">
        {runMetricTables(run, metrics, evaluations).map((t) => (
          <MetricTable key={t.key} title={t.title} rows={t.rows} />
        ))}
      </div>
      <p className="muted">
        {run.mediated ? null : <>{unmediatedNote()} </>}
        {unitsNote()} “—” marks a metric that is undefined for this run, with the reason. Computed{" "}
        {metrics.computedAt.slice(0, 16).replace("T", " ")} UTC with <code>npx socrates metrics</code>.
      </p>
    </section>
  );
}

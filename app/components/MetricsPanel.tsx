import type { EvaluationView, RunMetrics } from "../domain/catalog-views.ts";
import {
  explainMetric,
  formatMetricValue,
  paramList,
  metricLabel,
  unitsNote,
  unmediatedNote,
} from "../domain/metrics/metric-format.ts";
import { runMetricTables, type MetricTableRow } from "../domain/metrics/run-metric-tables.ts";
import { termKey } from "../domain/glossary.ts";
import { Term, TermOrText } from "./Term.tsx";

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
  const params = paramList(rows.map((r) => r.params));
  const withReference = rows.some((r) => r.reference);
  return (
    <div className="topic">
      <h3>{title}</h3>
      <table className="mini-table">
        {withReference ? (
          <thead>
            <tr>
              <th scope="col">metric</th>
              <th scope="col">
                <Term k="definitions">spec</Term>
              </th>
              <th scope="col">
                <Term k="definitions">ProMediate ref.</Term>
              </th>
              <th scope="col" />
            </tr>
          </thead>
        ) : null}
        <tbody>
          {rows.map((m, i) => (
            <tr key={`${m.metric}-${i}`} data-metric={m.metric}>
              <th scope="row">
                {/* A stored metric no longer registered has no entry: its id, with its label if known. */}
                {termKey(m.metric) ? <Term k={m.metric} /> : <span title={metricLabel(m.metric)}>{m.metric}</span>}
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
      {params.length > 0 ? (
        <p className="muted">
          <small>
            {params.map((p, i) => (
              <span key={p.key}>
                {i > 0 ? " · " : null}
                <TermOrText text={p.symbol} /> = {p.value}
              </span>
            ))}
          </small>
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
        {unitsNote()} “—” marks a metric that is undefined for this run, with the reason. Each symbol links to the{" "}
        <a href="/glossary">glossary</a>. Computed {metrics.computedAt.slice(0, 16).replace("T", " ")} UTC with{" "}
        <code>npx socrates metrics</code>.
      </p>
    </section>
  );
}

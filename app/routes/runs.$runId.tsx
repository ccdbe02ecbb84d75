import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { ConsensusChart, type ChartSeries } from "../components/ConsensusChart.tsx";
import { Dialogue } from "../components/Dialogue.tsx";
import { ScenarioDetails } from "../components/ScenarioDetails.tsx";
import { TopicScoreTable } from "../components/TopicScoreTable.tsx";
import { DEFAULT_S0 } from "../domain/consensus.ts";
import { getRunMetrics, getRunView, type EvaluationView, type MetricView, type RunMetrics } from "../server/catalog.server.ts";
import { getDb } from "../server/db.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { formatMetricValue, formatParams, METRIC_LABELS } from "../server/pipeline/metric-format.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.run.id ?? "Run"} · SoCRATES Studio` }];

export async function loader({ params, request }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]); // researchers only: these pages show models, conditions and evaluator scores
  const view = getRunView(getDb(), params.runId ?? "");
  if (!view) throw new Response(`There is no run "${params.runId}".`, { status: 404, statusText: "Not Found" });
  return json({ ...view, metrics: getRunMetrics(getDb(), view.run.id) });
}

const PALETTE = { "topic-localized": ["#1f6feb", "#0b7a75", "#6f42c1"], "per-turn": ["#d9480f", "#b08800", "#cf222e"] };

export default function RunViewer() {
  const view = useLoaderData<typeof loader>();
  const [showThoughts, setShowThoughts] = useState(false);
  const mediatorTurns = view.turns.filter((t) => t.role === "mediator").map((t) => t.turnId);
  const used = { "topic-localized": 0, "per-turn": 0 };
  const series: ChartSeries[] = view.evaluations.map((e) => ({
    label: `${e.method === "topic-localized" ? "C[t] topic-localized" : "G[t] per-turn baseline"} · ${e.backbone}`,
    values: e.consensus,
    color: PALETTE[e.method][used[e.method]++ % 3],
    dashed: e.method === "per-turn",
  }));
  const final = (values: number[]) => `${(values[values.length - 1] * 100).toFixed(1)}%`;
  return (
    <>
      <p className="crumbs">
        <Link to="/scenarios">Scenarios</Link> / <Link to={`/scenarios/${encodeURIComponent(view.scenario.id)}`}>{view.scenario.title}</Link> /
      </p>
      <h1>
        {view.run.mediated ? "Mediated run" : "Unmediated run"} <code className="run-id">{view.run.id}</code>
      </h1>
      <dl className="facts">
        <div>
          <dt>Outcome</dt>
          <dd>
            <span className={`outcome outcome-${view.run.outcome}`}>{view.run.outcome}</span>
          </dd>
        </div>
        <div>
          <dt>Condition</dt>
          <dd>
            {view.condition.axis}
            {view.condition.variant !== "default" ? ` · ${view.condition.variant}` : ""}
          </dd>
        </div>
        <div>
          <dt>Mediator</dt>
          <dd>{view.run.mediatorBackbone ?? "none"}</dd>
        </div>
        <div>
          <dt>Simulator</dt>
          <dd>{view.run.simulatorBackbone}</dd>
        </div>
        <div>
          <dt>Turns</dt>
          <dd>
            {view.run.totalTurns} ({view.run.partyTurns} party, {view.run.mediatorTurns} mediator)
          </dd>
        </div>
        {view.counterpartId ? (
          <div>
            <dt>Matched run</dt>
            <dd>
              <Link to={`/runs/${encodeURIComponent(view.counterpartId)}`}>{view.run.mediated ? "without mediator" : "with mediator"}</Link>
            </dd>
          </div>
        ) : null}
      </dl>

      <ScenarioDetails background={view.played.background} topics={view.played.topics} parties={view.played.parties} collapsible />

      <section>
        <h2>Consensus over the run</h2>
        {series.length === 0 ? (
          <p className="empty-state">
            This run has no evaluations yet. Score it with <code>npx socrates evaluate --run {view.run.id}</code> or import an evaluation bundle.
          </p>
        ) : (
          <>
            <ConsensusChart series={series} totalTurns={view.run.totalTurns} mediatorTurns={mediatorTurns} title={`Consensus by turn for run ${view.run.id}`} />
            <p className="muted">
              Final consensus: {view.evaluations.map((e, i) => `${series[i].label} ${final(e.consensus)}`).join(" · ")}.
              C[t] averages each topic's latest located 1–5 score, remapped to 0–100 % (starting score s0 = {DEFAULT_S0});
              G[t] averages pairwise agreement over party pairs and topics.
            </p>
          </>
        )}
        {view.evaluations
          .filter((e) => e.errors.length > 0)
          .map((e) => (
            <div key={e.id} className="callout warning">
              <strong>{e.backbone} recorded errors:</strong>
              <ul>
                {e.errors.map((err, i) => (
                  <li key={i}>
                    {err.topic_id ? <code>{err.topic_id}</code> : null} {err.message}
                  </li>
                ))}
              </ul>
            </div>
          ))}
      </section>

      <MetricsPanel runId={view.run.id} mediated={view.run.mediated} metrics={view.metrics} evaluations={view.evaluations} />

      <section className="run-layout">
        <div>
          <div className="section-head">
            <h2>Dialogue</h2>
            <label className="toggle">
              <input type="checkbox" checked={showThoughts} onChange={(e) => setShowThoughts(e.target.checked)} /> Show private thoughts
            </label>
          </div>
          <Dialogue turns={view.turns} parties={view.played.parties} showThoughts={showThoughts} snippets={view.snippets} />
        </div>
        <div>
          <h2>Scores and stances by topic</h2>
          {view.evaluations
            .filter((e) => e.method === "topic-localized")
            .map((e) => (
              <TopicScoreTable key={e.id} evaluation={e} topics={view.played.topics} parties={view.played.parties} />
            ))}
          {view.evaluations.some((e) => e.method === "topic-localized") ? null : <p className="muted">No topic-localized evaluation for this run.</p>}
        </div>
      </section>
    </>
  );
}

// ---------- metrics ----------

type Detail = Record<string, unknown>;
const num = (v: unknown): number | null => (typeof v === "number" ? v : null);
const pct = (v: unknown): string => (typeof v === "number" ? `${(v * 100).toFixed(1)}%` : "—");

/** A short account of what a value rests on (counts from the stored detail). */
function metricNote(m: Pick<MetricView, "metric" | "value" | "detail">): string {
  const d = m.detail as Detail;
  const parts: string[] = [];
  if (m.value === null && typeof d.reason === "string") parts.push(d.reason);
  switch (m.metric) {
    case "IT":
      parts.push(`${d.counted} of ${d.events} drop events counted, ${d.censored} censored`);
      break;
    case "IE":
      if (m.value !== null) parts.push(`${d.interventions} interventions${num(d.truncatedHorizon) ? `, ${d.truncatedHorizon} with a cut-short horizon` : ""}`);
      break;
    case "IF":
      parts.push(`${d.mediatorTurns} mediator / ${d.partyTurns} party turns`);
      break;
    case "FI":
      if (d.firstTurn !== null) parts.push(`turn ${d.firstTurn} of ${d.totalTurns}`);
      break;
    case "CG":
      parts.push(`matched pair: final consensus ${pct(d.mediated)} with the mediator, ${pct(d.unmediated)} without`);
      break;
    case "CC":
      if (m.value !== null) parts.push(`windows of w = ${d.w} turns`);
      break;
    case "TLE":
      parts.push(`${d.topicsUsed} topics mentioned, ${d.topicsUnmentioned} never`);
      break;
    case "RL":
      parts.push(`${d.events} drop events, ${pct(d.unrespondedShare)} unanswered`);
      if (num(d.meanDecisionSeconds) !== null) parts.push(`decisions take ${num(d.meanDecisionSeconds)!.toFixed(1)} s on average`);
      break;
    case "ME":
      if (num(d.interventions)) parts.push(`${d.interventionsUsed} of ${d.interventions} interventions with slopes on both sides`);
      break;
    case "MI":
      if (d.interventions === undefined) break; // the placeholder row of a run not judged yet
      parts.push(`${d.interventions} of ${d.mediatorTurns} interventions judged by ${d.backbone}; ${d.notApplicableScores} scores not applicable`);
      break;
  }
  if (num(d.evaluationErrors)) parts.push(`the judge recorded ${d.evaluationErrors} errors`);
  return parts.join("; ");
}

function MetricTable({ title, rows }: { title: string; rows: MetricView[] }) {
  return (
    <div className="topic">
      <h3>{title}</h3>
      <table className="mini-table">
        <tbody>
          {rows.map((m, i) => (
            <tr key={`${m.metric}-${i}`} data-metric={m.metric}>
              <th scope="row" title={METRIC_LABELS[m.metric]}>
                {m.metric}
              </th>
              <td className="num">
                <strong>{formatMetricValue(m.metric, m.value)}</strong>
              </td>
              <td className="muted">{metricNote(m)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {formatParams(rows.map((r) => r.params)) ? (
        <p className="muted">
          <small>{formatParams(rows.map((r) => r.params))}</small>
        </p>
      ) : null}
    </div>
  );
}

const ORDER = ["IT", "IE", "CG", "CC", "TLE", "RL", "ME", "IF", "FI", "MI"];
const byOrder = (a: MetricView, b: MetricView) => ORDER.indexOf(a.metric) - ORDER.indexOf(b.metric);

function MetricsPanel({ runId, mediated, metrics, evaluations }: { runId: string; mediated: boolean; metrics: RunMetrics; evaluations: Pick<EvaluationView, "id" | "method" | "backbone">[] }) {
  if (metrics.computedAt === null) {
    return (
      <section data-testid="metrics">
        <h2>Metrics</h2>
        <p className="empty-state">
          No metrics computed for this run yet. Compute them with <code>npx socrates metrics --run {runId}</code>.
        </p>
      </section>
    );
  }
  const notJudged: MetricView = {
    metric: "MI",
    value: null,
    detail: { reason: `not judged yet (npx socrates evaluate --method mi --run ${runId}, then npx socrates metrics)` },
    params: {},
    computedAt: "",
  };
  const runRows = [...metrics.run, ...(metrics.mi.length > 0 || !mediated ? metrics.mi : [notJudged])].sort(byOrder);
  return (
    <section data-testid="metrics">
      <h2>Metrics</h2>
      <div className="topics">
        {evaluations.map((e) => {
          const rows = [...(metrics.evaluations[e.id] ?? []), ...(metrics.pair?.cg.filter((m) => m.detail.backbone === e.backbone && e.method === "topic-localized") ?? [])].sort(byOrder);
          if (rows.length === 0) return null;
          return <MetricTable key={e.id} title={`${e.method === "topic-localized" ? "Topic-localized C[t]" : "Per-turn baseline G[t]"} · ${e.backbone}`} rows={rows} />;
        })}
        {runRows.length > 0 ? <MetricTable title="The run itself" rows={runRows} /> : null}
      </div>
      <p className="muted">
        IT, IE, IF, FI and CG are shown ×100; CC, TLE and ME are changes in pairwise agreement (0–1); RL is in turns; MI is on the judge&apos;s 1–5 scale. “—” marks a
        metric that is undefined for this run, with the reason. Computed {metrics.computedAt.slice(0, 16).replace("T", " ")} UTC with <code>npx socrates metrics</code>.
      </p>
    </section>
  );
}

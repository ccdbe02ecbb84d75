import { json, type LoaderFunctionArgs, type MetaFunction, type SerializeFrom } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { ChartFrame } from "../components/charts/ChartFrame.tsx";
import { Dialogue } from "../components/Dialogue.tsx";
import { EmotionSection } from "../components/EmotionChart.tsx";
import { ScenarioDetails } from "../components/ScenarioDetails.tsx";
import { TopicScoreTable } from "../components/TopicScoreTable.tsx";
import { DEFAULT_S0 } from "../domain/consensus.ts";
import { MetricsPanel } from "../components/MetricsPanel.tsx";
import { Term } from "../components/Term.tsx";
import { MediatorDecisions } from "../components/MediatorDecisions.tsx";
import type { MediatorDecision } from "../domain/bundle.ts";
import { getRunConsensusChart, getRunEmotion, getRunMetrics, getRunView } from "../server/catalog.server.ts";
import { getDb } from "../server/db.server.ts";
import { requireUser } from "../server/auth/session.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.run.id ?? "Run"} · SoCRATES Studio` },
];

export async function loader({ params, request }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]); // researchers only: these pages show models, conditions and evaluator scores
  const view = await getRunView(await getDb(), params.runId ?? "");
  if (!view) throw new Response(`There is no run "${params.runId}".`, { status: 404, statusText: "Not Found" });
  return json({
    ...view,
    metrics: await getRunMetrics(await getDb(), view.run.id),
    consensusChart: await getRunConsensusChart(view),
    emotion: await getRunEmotion(await getDb(), view),
  });
}

type Loaded = SerializeFrom<typeof loader>;

export default function RunViewer() {
  const view = useLoaderData<typeof loader>();
  return (
    <>
      <p className="crumbs">
        <Link to="/scenarios">Scenarios</Link> /{" "}
        <Link to={`/scenarios/${encodeURIComponent(view.scenario.id)}`}>{view.scenario.title}</Link> /
      </p>
      <h1>
        {view.run.mediated ? "Mediated run" : "Unmediated run"} <code className="run-id">{view.run.id}</code>
      </h1>
      <RunFacts view={view} />
      <ScenarioDetails
        background={view.played.background}
        topics={view.played.topics}
        parties={view.played.parties}
        collapsible
      />
      <ConsensusSection view={view} />
      <EmotionSection runId={view.run.id} charts={view.emotion} />
      <MetricsPanel run={view.run} metrics={view.metrics} evaluations={view.evaluations} />
      <MediatorDecisions decisions={view.run.mediatorDecisions as MediatorDecision[]} topics={view.played.topics} />
      <section className="run-layout">
        <DialogueColumn view={view} />
        <TopicScoresColumn view={view} />
      </section>
    </>
  );
}

function RunFacts({ view }: { view: Loaded }) {
  return (
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
          {view.run.turnOrder === "free" ? " · free turn order" : ""}
        </dd>
      </div>
      {view.counterpartId ? (
        <div>
          <dt>Matched run</dt>
          <dd>
            <Link to={`/runs/${encodeURIComponent(view.counterpartId)}`}>
              {view.run.mediated ? "without mediator" : "with mediator"}
            </Link>
          </dd>
        </div>
      ) : null}
    </dl>
  );
}

function ConsensusSection({ view }: { view: Loaded }) {
  const final = (values: number[]) => `${(values[values.length - 1] * 100).toFixed(1)}%`;
  return (
    <section>
      <h2>Consensus over the run</h2>
      {view.consensusChart === null ? (
        <p className="empty-state">
          This run has no evaluations yet. Score it with <code>npx socrates evaluate --run {view.run.id}</code> or
          import an evaluation bundle.
        </p>
      ) : (
        <>
          <ChartFrame
            chart={view.consensusChart}
            testId="consensus-chart"
            fileName={`${view.run.id}-consensus`.replace(/[^\w.-]+/g, "_")}
            label={`Consensus by turn for run ${view.run.id}: one line per evaluation, mediator turns as rules`}
          />
          <p className="muted">
            Final consensus:{" "}
            {view.evaluations.map((e, i) => (
              <span key={e.id}>
                {i > 0 ? " · " : null}
                <Term k={e.method === "topic-localized" ? "C[t]" : "G[t]"} />{" "}
                {e.method === "topic-localized" ? "topic-localized" : "per-turn baseline"} · {e.backbone}{" "}
                {final(e.consensus)}
              </span>
            ))}
            . <Term k="C[t]" /> averages each topic's latest located 1–5 score, remapped to 0–100 % (starting score{" "}
            <Term k="s0" /> = {DEFAULT_S0}); <Term k="G[t]" /> averages pairwise agreement over party pairs and topics.
          </p>
        </>
      )}
      <EvaluationErrors evaluations={view.evaluations} />
    </section>
  );
}

function EvaluationErrors({ evaluations }: { evaluations: Loaded["evaluations"] }) {
  return evaluations
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
    ));
}

function DialogueColumn({ view }: { view: Loaded }) {
  const [showThoughts, setShowThoughts] = useState(false);
  return (
    <div>
      <div className="section-head">
        <h2>Dialogue</h2>
        <label className="toggle">
          <input type="checkbox" checked={showThoughts} onChange={(e) => setShowThoughts(e.target.checked)} /> Show
          private thoughts
        </label>
      </div>
      <Dialogue turns={view.turns} parties={view.played.parties} showThoughts={showThoughts} snippets={view.snippets} />
    </div>
  );
}

function TopicScoresColumn({ view }: { view: Loaded }) {
  const topicLocalized = view.evaluations.filter((e) => e.method === "topic-localized");
  return (
    <div>
      <h2>Scores and stances by topic</h2>
      {topicLocalized.map((e) => (
        <TopicScoreTable key={e.id} evaluation={e} topics={view.played.topics} parties={view.played.parties} />
      ))}
      {topicLocalized.length > 0 ? null : <p className="muted">No topic-localized evaluation for this run.</p>}
    </div>
  );
}

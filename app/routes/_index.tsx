import { json, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import type { loader as rootLoader } from "../root.tsx";
import { listRuns, overview } from "../server/catalog.server.ts";
import { getDb } from "../server/db.server.ts";

export const meta: MetaFunction = () => [{ title: "SoCRATES Studio" }];

export async function loader() {
  const db = await getDb();
  const firstMediated = (await listRuns(db, { limit: 50 })).find((r) => r.mediated && r.evaluations > 0);
  return json({ ...(await overview(db)), exampleRunId: firstMediated?.id ?? null });
}

export default function Home() {
  const data = useLoaderData<typeof loader>();
  const role = useRouteLoaderData<typeof rootLoader>("root")?.user?.role;
  const annotator = role === "expert" || role === "crowd";
  return (
    <>
      <section className="hero">
        <h1>Can an LLM mediate a real conflict — and can the judge that says so be trusted?</h1>
        <p>
          SoCRATES Studio runs multi-party negotiations with and without an LLM mediator, scores every trajectory topic
          by topic, and measures how far that automatic judge agrees with expert and crowd annotators.
        </p>
      </section>
      <section className="stat-row" aria-label="What is in this database">
        <div className="stat">
          <strong>{data.scenarios}</strong> scenarios
        </div>
        <div className="stat">
          <strong>{data.domains.length}</strong> domains
        </div>
        <div className="stat">
          <strong>{data.runs}</strong> runs
        </div>
        <div className="stat">
          <strong>{data.evaluations}</strong> evaluations
        </div>
      </section>
      {data.scenarios === 0 ? (
        <section className="empty-state">
          <h2>No data yet</h2>
          <p>
            Load the demo study with <code>npx socrates seed-demo</code>, or import your own bundle with{" "}
            <code>npx socrates import path/to/bundle.json</code> (the format is in <code>docs/formats.md</code>).
          </p>
        </section>
      ) : annotator ? (
        // Scenarios and runs are for researchers; annotators go straight to their work.
        <section className="cards">
          <Link to="/annotate" className="card">
            <h2>My tasks</h2>
            <p>The studies open to you, how far you have got, and the next item to label.</p>
          </Link>
        </section>
      ) : (
        <ResearchCards domainCount={data.domains.length} exampleRunId={data.exampleRunId} />
      )}
      <HowItFitsTogether />
    </>
  );
}

/** Where a researcher goes next: scenarios, runs, the benchmark and, when there is one, a mediated run. */
function ResearchCards({ domainCount, exampleRunId }: { domainCount: number; exampleRunId: string | null }) {
  return (
    <section className="cards">
      <Link to="/scenarios" className="card">
        <h2>Scenarios</h2>
        <p>Conflicts across {domainCount} domains: background, topics with their options, and each party's position.</p>
      </Link>
      <Link to="/runs" className="card">
        <h2>Runs</h2>
        <p>Every simulated negotiation, mediated or not, with its outcome and evaluations.</p>
      </Link>
      <Link to="/benchmark" className="card">
        <h2>Benchmark</h2>
        <p>
          Mediators over scenarios × conditions: the leaderboard, the domain table as a heat map, axis profiles and
          timing.
        </p>
      </Link>
      {exampleRunId ? (
        <Link to={`/runs/${encodeURIComponent(exampleRunId)}`} className="card">
          <h2>See a mediated run</h2>
          <p>The dialogue, the consensus trajectory C[t] beside the per-turn baseline G[t], and per-topic scores.</p>
        </Link>
      ) : null}
    </section>
  );
}

/** The pipeline from scenarios to validation, in the order a study goes through it. */
function HowItFitsTogether() {
  return (
    <section className="how">
      <h2>How it fits together</h2>
      <ol>
        <li>
          <strong>Curate or import scenarios.</strong> <code>socrates curate</code> finds real disputes, recasts them
          into scenarios and keeps those that unmediated replays cannot resolve; scenarios, conditions and runs also
          arrive as bundles (<code>socrates import</code>), and the demo ships four. <code>socrates probe</code> expands
          each scenario into the 15 socio-cognitive conditions (strategy, three parties, extended history, emotion,
          culture), listed with their changes on the scenario's page.
        </li>
        <li>
          <strong>Simulate.</strong> Parties negotiate in turn; a mediator may speak between party turns.{" "}
          <code>socrates fidelity pairs</code> plays one party at two levels of the reactiveness grid, for A/B studies
          of persona fidelity.
        </li>
        <li>
          <strong>Evaluate.</strong> A topic-localized judge scores only the turns that move each topic; a per-turn
          baseline scores every topic at every turn.
        </li>
        <li>
          <strong>Benchmark.</strong> <code>socrates benchmark run</code> plays a plan's grid of scenarios × conditions
          × mediators and measures every run; <code>socrates report</code> and the Benchmark page turn it into the
          paper's tables and charts.
        </li>
        <li>
          <strong>Validate.</strong> Experts and crowdworkers label snippets; agreement and alignment tell you whether
          to trust the judge.
        </li>
      </ol>
    </section>
  );
}

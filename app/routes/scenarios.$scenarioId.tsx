import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AcceptanceRecord } from "../components/curation/AcceptanceRecord.tsx";
import { SeedReport } from "../components/curation/SeedReport.tsx";
import { ConditionList } from "../components/probing/ConditionList.tsx";
import { conditionCountsLine } from "../domain/probing/condition-listing.ts";
import { RunTable } from "../components/RunTable.tsx";
import { ScenarioDetails } from "../components/ScenarioDetails.tsx";
import { ScenarioProvenance } from "../components/ScenarioProvenance.tsx";
import { getScenario } from "../server/catalog.server.ts";
import { getDb } from "../server/db.server.ts";
import { requireUser } from "../server/auth/session.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.scenario.title ?? "Scenario"} · SoCRATES Studio` },
];

export async function loader({ params, request }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]); // researchers only: these pages show models, conditions and evaluator scores
  const found = await getScenario(await getDb(), params.scenarioId ?? "");
  if (!found)
    throw new Response(`There is no scenario "${params.scenarioId}".`, { status: 404, statusText: "Not Found" });
  return json(found);
}

export default function ScenarioPage() {
  const { scenario, conditionCount, conditions, runs, curation } = useLoaderData<typeof loader>();
  const details = (
    <ScenarioDetails background={scenario.background} topics={scenario.topics} parties={scenario.parties} />
  );
  return (
    <>
      <p className="crumbs">
        <Link to="/scenarios">Scenarios</Link> /
      </p>
      <h1>
        {scenario.title} {scenario.source.kind === "demo" ? <span className="badge">demo data</span> : null}
        {scenario.source.kind === "curated" ? <span className="badge">curated</span> : null}
        {scenario.source.kind === "promediate" ? <span className="badge">ProMediate case</span> : null}
      </h1>
      <p className="muted">
        <span className="domain">{scenario.domain}</span> ·{" "}
        <span data-testid="condition-counts">{conditionCountsLine(conditions, conditionCount)}</span>
      </p>
      <ScenarioProvenance source={scenario.source} />
      {curation ? (
        <div className="curation-layout">
          <div>{details}</div>
          <SeedReport seed={curation.seed} />
        </div>
      ) : (
        details
      )}
      {curation ? <AcceptanceRecord replays={curation.replays} /> : null}
      {scenario.source.kind === "curated" && !curation ? (
        <p className="muted">
          Curated elsewhere: this database holds no seed report or acceptance record for it (imported from a bundle?).
        </p>
      ) : null}
      <ConditionList listing={conditions} />
      <h2>Runs</h2>
      <RunTable runs={runs} />
    </>
  );
}

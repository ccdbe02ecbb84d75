import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { CurationSummary } from "../components/curation/CurationSummary.tsx";
import { curationOverview, listScenarios } from "../server/catalog.server.ts";
import { getDb } from "../server/db.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { ScrollX } from "../components/ScrollX.tsx";

export const meta: MetaFunction = () => [{ title: "Scenarios · SoCRATES Studio" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]); // researchers only: these pages show models, conditions and evaluator scores
  const db = await getDb();
  return json({ scenarios: await listScenarios(db), curation: await curationOverview(db) });
}

export default function Scenarios() {
  const { scenarios, curation } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Scenarios</h1>
      {scenarios.length === 0 ? (
        <p className="empty-state">
          No scenarios yet. Run <code>npx socrates seed-demo</code> or <code>npx socrates import bundle.json</code>.
        </p>
      ) : (
        <ScrollX label="Scenarios">
          <table className="data-table">
            <thead>
              <tr>
                <th>Title</th>
                <th>Domain</th>
                <th className="num">Parties</th>
                <th className="num">Topics</th>
                <th className="num">Runs</th>
              </tr>
            </thead>
            <tbody>
              {scenarios.map((s) => (
                <tr key={s.id}>
                  <td>
                    <Link to={`/scenarios/${encodeURIComponent(s.id)}`}>{s.title}</Link>{" "}
                    {s.demo ? <span className="badge">demo</span> : null}
                    {s.curated ? <span className="badge">curated</span> : null}
                  </td>
                  <td>
                    <span className="domain">{s.domain}</span>
                  </td>
                  <td className="num">{s.parties}</td>
                  <td className="num">{s.topics}</td>
                  <td className="num">{s.runs}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      )}
      <CurationSummary domains={curation} />
    </>
  );
}

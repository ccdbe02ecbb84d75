import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ScrollX } from "../components/ScrollX.tsx";
import { requireUser } from "../server/auth/session.server.ts";
import { benchmarkPlans } from "../server/benchmark/page.server.ts";
import { getDb } from "../server/db.server.ts";
import { Term } from "../components/Term.tsx";

export const meta: MetaFunction = () => [{ title: "Benchmark · SoCRATES Studio" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]); // researchers only: mediator models and their scores
  return json({ plans: await benchmarkPlans(await getDb()) });
}

export default function BenchmarkPlans() {
  const { plans } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Benchmark</h1>
      {plans.length === 0 ? (
        <section className="empty-state">
          <h2>No benchmark has been run yet</h2>
          <p>
            Write a plan (scenarios × conditions × mediators; <code>benchmark.example.json</code> is a start, the format
            is in <code>docs/benchmark.md</code>), then run{" "}
            <code>npx socrates benchmark run --plan benchmark.json</code>. Each plan it runs appears here with its
            leaderboard, tables and charts; <code>npx socrates report --plan benchmark.json</code> writes the same
            report to files.
          </p>
        </section>
      ) : (
        <ScrollX label="Benchmark plans">
          <table className="data-table" data-testid="benchmark-plans">
            <thead>
              <tr>
                <th>Plan</th>
                <th>
                  <Term k="plan-hash">Hash</Term>
                </th>
                <th className="num">Mediators</th>
                <th className="num">Runs stored / planned</th>
                <th>Last run</th>
              </tr>
            </thead>
            <tbody>
              {plans.map((p) => (
                <tr key={p.hash}>
                  <td>
                    <Link to={`/benchmark/${p.hash}`}>{p.name}</Link> <small className="muted">{p.source}</small>
                  </td>
                  <td>
                    <code>{p.hash}</code>
                  </td>
                  <td className="num">{p.mediators}</td>
                  <td className="num">
                    {p.storedRuns} / {p.plannedRuns}
                  </td>
                  <td>{p.lastRunAt ? p.lastRunAt.slice(0, 16).replace("T", " ") : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollX>
      )}
    </>
  );
}

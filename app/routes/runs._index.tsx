import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { RunTable } from "../components/RunTable.tsx";
import { listRuns } from "../server/catalog.server.ts";
import { getDb } from "../server/db.server.ts";
import { requireUser } from "../server/auth/session.server.ts";

export const meta: MetaFunction = () => [{ title: "Runs · SoCRATES Studio" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]); // researchers only: these pages show models, conditions and evaluator scores
  // ?condition=<id>: the runs of one condition (the scenario page links here).
  const condition = new URL(request.url).searchParams.get("condition") || null;
  return json({ condition, runs: listRuns(getDb(), condition ? { conditionId: condition } : {}) });
}

export default function Runs() {
  const { condition, runs } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Runs</h1>
      {condition ? (
        <p className="muted">
          Condition <code>{condition}</code> only · <Link to="/runs">all runs</Link>
        </p>
      ) : null}
      <RunTable runs={runs} />
    </>
  );
}

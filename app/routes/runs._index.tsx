import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { RunTable } from "../components/RunTable.tsx";
import { listRuns } from "../server/catalog.server.ts";
import { getDb } from "../server/db.server.ts";
import { requireUser } from "../server/auth/session.server.ts";

export const meta: MetaFunction = () => [{ title: "Runs · SoCRATES Studio" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]); // researchers only: these pages show models, conditions and evaluator scores
  return json({ runs: listRuns(getDb()) });
}

export default function Runs() {
  const { runs } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Runs</h1>
      <RunTable runs={runs} />
    </>
  );
}

import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { RunTable } from "../components/RunTable.tsx";
import { TableFilter } from "../components/TableFilter.tsx";
import { parseSort } from "../domain/table-sort.ts";
import { listRuns, RUN_SORT_KEYS, runOutcomes } from "../server/catalog.server.ts";
import { getDb } from "../server/db.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { cellRunIds } from "../server/benchmark/page.server.ts";
import { orResponse } from "../server/http/responses.server.ts";

export const meta: MetaFunction = () => [{ title: "Runs · SoCRATES Studio" }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]); // researchers only: these pages show models, conditions and evaluator scores
  const params = new URL(request.url).searchParams;
  // ?condition=<id>: the runs of one condition (the scenario page links here); ?q, ?outcome, ?mediated filter;
  // ?sort&dir sort.
  const condition = params.get("condition") || null;
  // ?plan&table&row&column: the runs behind one cell of a benchmark report (the Benchmark page links here).
  const cell = benchmarkCell(params);
  const filter = {
    q: params.get("q") ?? "",
    outcome: params.get("outcome") ?? "",
    mediated: params.get("mediated") ?? "",
  };
  const sort = parseSort(params, RUN_SORT_KEYS, { key: "scenario", dir: "asc" });
  const db = getDb();
  const runs = listRuns(db, {
    ids: cell?.runIds,
    conditionId: condition ?? undefined,
    text: filter.q,
    outcome: filter.outcome || undefined,
    mediated: filter.mediated === "" ? undefined : filter.mediated === "yes",
    // Without ?sort the scenario/condition order of the catalogue.
    sort: params.has("sort") ? sort : undefined,
  });
  const keep = cell
    ? { plan: cell.plan, table: cell.table, row: cell.row, column: cell.column }
    : condition
      ? { condition }
      : {};
  return json({
    condition,
    cell: cell ? { label: cell.label, plan: cell.plan } : null,
    keep,
    runs,
    filter,
    sort,
    outcomes: runOutcomes(db),
  });
}

function benchmarkCell(params: URLSearchParams) {
  const [plan, table, row, column] = ["plan", "table", "row", "column"].map((k) => params.get(k) ?? "");
  if (!plan) return null;
  const found = orResponse(() => cellRunIds(getDb(), plan, { table, row, column }));
  return { plan, table, row, column, label: found.label, runIds: found.runIds };
}

const MEDIATED = [
  { value: "yes", label: "mediated" },
  { value: "no", label: "unmediated" },
];

export default function Runs() {
  const { condition, cell, keep, runs, filter, sort, outcomes } = useLoaderData<typeof loader>();
  return (
    <>
      <h1>Runs</h1>
      {cell ? (
        <p className="muted" data-testid="cell-runs">
          The runs behind {cell.label} · <Link to={`/benchmark/${cell.plan}`}>back to the report</Link> ·{" "}
          <Link to="/runs">all runs</Link>
        </p>
      ) : null}
      {condition ? (
        <p className="muted">
          Condition <code>{condition}</code> only · <Link to="/runs">all runs</Link>
        </p>
      ) : null}
      <TableFilter
        label="Filter runs"
        text={{ value: filter.q, placeholder: "run, scenario, condition or model" }}
        selects={[
          {
            name: "outcome",
            label: "Outcome",
            value: filter.outcome,
            options: outcomes.map((o) => ({ value: o, label: o })),
          },
          { name: "mediated", label: "Mediated", value: filter.mediated, options: MEDIATED },
        ]}
        sort={sort}
        keep={keep}
      />
      <RunTable runs={runs} sort={sort} />
    </>
  );
}

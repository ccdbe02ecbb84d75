import { json, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Pager } from "../components/Pager.tsx";
import { RunTable } from "../components/RunTable.tsx";
import { TableFilter } from "../components/TableFilter.tsx";
import {
  conditionKey,
  conditionLabel,
  NO_MEDIATOR,
  parseConditionKey,
  parsePage,
  RUN_PAGE_SIZE,
} from "../domain/run-list.ts";
import { parseSort } from "../domain/table-sort.ts";
import { RUN_SORT_KEYS, runFacets, runsPage } from "../server/catalog.server.ts";
import { getDb } from "../server/db.server.ts";
import { requireUser } from "../server/auth/session.server.ts";
import { cellRunIds } from "../server/benchmark/page.server.ts";
import { orResponse } from "../server/http/responses.server.ts";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: data && data.pages > 1 ? `Runs, page ${data.page} of ${data.pages} · ${APP}` : `Runs · ${APP}` },
];
const APP = "SoCRATES Studio";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request, ["admin"]); // researchers only: these pages show models, conditions and evaluator scores
  const params = new URL(request.url).searchParams;
  // ?condition=<id>: the runs of one condition (the scenario page links here). The filters (a GET form, so a
  // filtered page is a link): ?q words, ?scenario, ?cond=<axis>:<variant>, ?mediator, ?backbone, ?outcome,
  // ?mediated; ?sort&dir sort; ?page pages.
  const condition = params.get("condition") || null;
  // ?plan&table&row&column: the runs behind one cell of a benchmark report (the Benchmark page links here).
  const cell = await benchmarkCell(params);
  const filter = Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? ""])) as RunFilterValues;
  const sort = parseSort(params, RUN_SORT_KEYS, { key: "scenario", dir: "asc" });
  const db = await getDb();
  const paged = await runsPage(
    db,
    {
      ids: cell?.runIds,
      conditionId: condition ?? undefined,
      text: filter.q,
      scenarioId: filter.scenario || undefined,
      condition: parseConditionKey(filter.cond),
      mediator: filter.mediator || undefined,
      backbone: filter.backbone || undefined,
      outcome: filter.outcome || undefined,
      mediated: filter.mediated === "" ? undefined : filter.mediated === "yes",
      // Without ?sort the scenario/condition order of the catalogue.
      sort: params.has("sort") ? sort : undefined,
    },
    parsePage(params.get("page")),
    RUN_PAGE_SIZE,
  );
  const keep = cell
    ? { plan: cell.plan, table: cell.table, row: cell.row, column: cell.column }
    : condition
      ? { condition }
      : {};
  const filtered = FILTERS.some((name) => filter[name] !== "");
  return json({
    condition,
    cell: cell ? { label: cell.label, plan: cell.plan } : null,
    keep,
    ...paged,
    filter,
    filtered,
    sort,
    facets: await runFacets(db),
  });
}

const FILTERS = ["q", "scenario", "cond", "mediator", "backbone", "outcome", "mediated"] as const;
type RunFilterValues = Record<(typeof FILTERS)[number], string>;

async function benchmarkCell(params: URLSearchParams) {
  const [plan, table, row, column] = ["plan", "table", "row", "column"].map((k) => params.get(k) ?? "");
  if (!plan) return null;
  const found = await orResponse(async () => await cellRunIds(await getDb(), plan, { table, row, column }));
  return { plan, table, row, column, label: found.label, runIds: found.runIds };
}

const MEDIATED = [
  { value: "yes", label: "mediated" },
  { value: "no", label: "unmediated" },
];

/** "Runs 51–100 of 5,400" when paged, "15 runs" when all fit, nothing when none match. */
function totalText(first: number, shown: number, total: number): string | null {
  const n = (x: number) => x.toLocaleString("en");
  if (total === 0) return null;
  if (shown < total) return `Runs ${n(first)}–${n(first + shown - 1)} of ${n(total)}`;
  return `${n(total)} ${total === 1 ? "run" : "runs"}`;
}

const same = (values: string[]) => values.map((v) => ({ value: v, label: v }));

export default function Runs() {
  const data = useLoaderData<typeof loader>();
  const { condition, cell, keep, runs, total, page, pages, size, filter, filtered, sort, facets } = data;
  const first = (page - 1) * size + 1;
  const clear = `?${new URLSearchParams(keep).toString()}`;
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
        text={{ value: filter.q, placeholder: "run id, scenario, condition or model" }}
        selects={[
          {
            name: "scenario",
            label: "Scenario",
            value: filter.scenario,
            options: facets.scenarios.map((s) => ({ value: s.id, label: s.title })),
          },
          {
            name: "cond",
            label: "Condition",
            value: filter.cond,
            options: facets.conditions.map((c) => ({
              value: conditionKey(c.axis, c.variant),
              label: conditionLabel(c.axis, c.variant),
            })),
          },
          {
            name: "mediator",
            label: "Mediator",
            value: filter.mediator,
            options: [{ value: NO_MEDIATOR, label: "no mediator" }, ...same(facets.mediators)],
          },
          { name: "backbone", label: "Backbone", value: filter.backbone, options: same(facets.backbones) },
          { name: "outcome", label: "Outcome", value: filter.outcome, options: same(facets.outcomes) },
          { name: "mediated", label: "Mediated", value: filter.mediated, options: MEDIATED },
        ]}
        sort={sort}
        keep={keep}
      />
      {filtered && total > 0 ? (
        <p className="muted">
          <Link to={clear}>Clear filters</Link>
        </p>
      ) : null}
      <p data-testid="run-total" aria-live="polite">
        {totalText(first, runs.length, total)}
      </p>
      {total === 0 && filtered ? (
        <p className="empty-state" data-testid="runs-empty">
          No runs match these filters — <Link to={clear}>clear filters</Link>.
        </p>
      ) : (
        <RunTable runs={runs} sort={sort} />
      )}
      <Pager page={page} pages={pages} label="Run pages" />
    </>
  );
}

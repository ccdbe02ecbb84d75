import { Link } from "@remix-run/react";
import type { RunListItem } from "../domain/catalog-views.ts";
import { conditionLabel, runTitle } from "../domain/run-list.ts";
import type { SortState } from "../domain/table-sort.ts";
import { SortHeader } from "./SortHeader.tsx";
import { ScrollX } from "./ScrollX.tsx";

/** A column header: a sort link when the page sorts (`sort` given), plain text otherwise. */
function Header({
  label,
  sortKey,
  sort,
  numeric = false,
}: {
  label: string;
  sortKey: string;
  sort?: SortState;
  numeric?: boolean;
}) {
  if (sort) return <SortHeader label={label} sortKey={sortKey} sort={sort} numeric={numeric} />;
  return <th className={numeric ? "num" : undefined}>{label}</th>;
}

/**
 * The runs table; given `sort`, its headers sort it through the query string (the runs page). Each run's main cell is
 * its readable title (scenario · condition · mediator) linking to it, with the run id beneath.
 */
export function RunTable({ runs, sort }: { runs: RunListItem[]; sort?: SortState }) {
  if (runs.length === 0) return <p className="empty-state">{sort ? "No run matches." : "No runs yet."}</p>;
  return (
    <ScrollX label="Runs">
      <table className="data-table" data-testid="run-table">
        <thead>
          <tr>
            <Header label="Run" sortKey="scenario" sort={sort} />
            <Header label="Condition" sortKey="condition" sort={sort} />
            <Header label="Mediator" sortKey="mediator" sort={sort} />
            <Header label="Outcome" sortKey="outcome" sort={sort} />
            <Header label="Turns" sortKey="turns" sort={sort} numeric />
            <Header label="Mediator turns" sortKey="mediatorTurns" sort={sort} numeric />
            <Header label="Evaluations" sortKey="evaluations" sort={sort} numeric />
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id}>
              <td className="run-title-cell">
                <Link to={`/runs/${encodeURIComponent(r.id)}`}>{runTitle(r)}</Link>
                <code className="run-id">{r.id}</code>
              </td>
              <td>{conditionLabel(r.axis, r.variant)}</td>
              <td>{r.mediated ? r.mediatorBackbone : <span className="muted">none</span>}</td>
              <td>
                <span className={`outcome outcome-${r.outcome}`}>{r.outcome}</span>
              </td>
              <td className="num">{r.totalTurns}</td>
              <td className="num">{r.mediatorTurns}</td>
              <td className="num">{r.evaluations}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollX>
  );
}

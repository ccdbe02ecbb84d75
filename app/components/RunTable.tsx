import { Link } from "@remix-run/react";
import type { RunListItem } from "../domain/catalog-views.ts";

export function RunTable({ runs, showScenario = true }: { runs: RunListItem[]; showScenario?: boolean }) {
  if (runs.length === 0) return <p className="empty-state">No runs yet.</p>;
  return (
    <table className="data-table">
      <thead>
        <tr>
          <th>Run</th>
          {showScenario ? <th>Scenario</th> : null}
          <th>Condition</th>
          <th>Mediator</th>
          <th>Outcome</th>
          <th className="num">Turns</th>
          <th className="num">Mediator turns</th>
          <th className="num">Evaluations</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.id}>
            <td>
              <Link to={`/runs/${encodeURIComponent(r.id)}`}>{r.id}</Link>
            </td>
            {showScenario ? <td>{r.scenarioTitle}</td> : null}
            <td>
              {r.axis}
              {r.variant !== "default" ? ` · ${r.variant}` : ""}
            </td>
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
  );
}

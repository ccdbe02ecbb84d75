import type { LeaderboardRow } from "../../domain/benchmark/report-view.ts";
import { cellTitle, formatMean } from "../../domain/benchmark/report-view.ts";

/** Mediators ranked by average consensus gain, with timeliness and effectiveness beside it (all ×100, count in brackets). */
export function Leaderboard({ rows, metrics }: { rows: LeaderboardRow[]; metrics: { key: string; label: string }[] }) {
  if (rows.length === 0) return <p className="empty-state">No mediator has a stored result yet.</p>;
  return (
    <table className="data-table leaderboard" data-testid="leaderboard">
      <thead>
        <tr>
          <th className="num">Rank</th>
          <th>Mediator</th>
          {metrics.map((m) => (
            <th key={m.key} className="num">
              {m.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.mediator}>
            <td className="num">{r.rank}</td>
            <td>
              {r.mediator}
              {r.group ? <small className="muted"> · {r.group}</small> : null}
            </td>
            {metrics.map((m) => {
              const cell = r.cells[m.key];
              return (
                <td key={m.key} className="num" title={cell ? cellTitle(cell, "percent") : undefined}>
                  {cell ? formatMean(cell.mean, "percent") : "—"}
                  {cell ? <small className="cell-n"> ({cell.n})</small> : null}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

import type { ReportCell } from "../../domain/benchmark/report-model.ts";
import { type LeaderboardRow, cellTitle, formatMean } from "../../domain/benchmark/report-view.ts";
import { ScrollX } from "../ScrollX.tsx";
import { Term } from "../Term.tsx";

export interface LeaderboardMetric {
  key: string;
  label: string;
  /** The hover text of a cell without data (e.g. how to get emotion data). */
  missingTitle?: string;
  /** The hover text of a cell with data, when the column is not a Table 3 mean (default: cellTitle). */
  describe?: (cell: ReportCell) => string;
  /** What the column's cells are, when they read differently from the others (under the table). */
  note?: string;
}

/**
 * Mediators ranked by average consensus gain, with timeliness, effectiveness and emotional repair beside it (all ×100,
 * the bootstrap 95% CI in square brackets, the count in parentheses).
 */
export function Leaderboard({ rows, metrics }: { rows: LeaderboardRow[]; metrics: LeaderboardMetric[] }) {
  if (rows.length === 0) return <p className="empty-state">No mediator has a stored result yet.</p>;
  return (
    <>
      <ScrollX label="Leaderboard">
        <table className="data-table leaderboard" data-testid="leaderboard">
          <thead>
            <tr>
              <th className="num">Rank</th>
              <th>Mediator</th>
              {metrics.map((m) => (
                <th key={m.key} className="num">
                  {/* The metric's short name (its key: CG, IE, IT, ER) stands in on a phone. */}
                  <Term k={m.key}>
                    <span className="metric-long">{m.label}</span>
                    <span className="metric-short">{m.key}</span>
                  </Term>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.mediator}>
                <td className="num">{r.rank}</td>
                <td className="mediator-name">
                  {r.mediator}
                  {r.group ? <small className="muted row-group">{r.group}</small> : null}
                </td>
                {metrics.map((m) => {
                  const cell = r.cells[m.key];
                  return (
                    <td
                      key={m.key}
                      className="num"
                      data-metric={m.key}
                      title={cell ? (m.describe?.(cell) ?? cellTitle(cell, "percent")) : m.missingTitle}
                    >
                      {cell ? formatMean(cell.mean, "percent") : "—"}
                      {cell?.ci ? (
                        <small className="cell-ci" data-testid="leaderboard-ci">
                          {" "}
                          [{formatMean(cell.ci[0], "percent")}, {formatMean(cell.ci[1], "percent")}]
                        </small>
                      ) : null}
                      {cell ? <small className="cell-n"> ({cell.n})</small> : null}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>
      <p className="muted leaderboard-note">
        Each cell: the mean ×100, its 95% confidence interval in brackets (percentile bootstrap over scenarios, seeded;
        none with fewer than two scenarios), and the runs in parentheses.
        {metrics.flatMap((m) => (m.note ? [` ${m.note}`] : [])).join("")}
      </p>
    </>
  );
}

/** How a curated scenario was accepted: every unmediated replay under the general condition, and how it ended. */
import { Link } from "@remix-run/react";
import type { ReplayView } from "../../domain/curation/record-view.ts";

export function AcceptanceRecord({ replays }: { replays: ReplayView[] }) {
  return (
    <section aria-labelledby="acceptance-title">
      <h2 id="acceptance-title">Acceptance record</h2>
      <p className="muted">
        Accepted because none of its {replays.length} unmediated replay{replays.length === 1 ? "" : "s"} (general
        condition, no mediator) reached agreement.
      </p>
      <table className="data-table acceptance-table">
        <thead>
          <tr>
            <th className="num">Replay</th>
            <th>Outcome</th>
            <th>Run</th>
          </tr>
        </thead>
        <tbody>
          {replays.map((r) => (
            <tr key={r.replay}>
              <td className="num">{r.replay}</td>
              <td>
                <span className={`outcome outcome-${r.outcome}`}>{r.outcome}</span>
              </td>
              <td>
                {r.runId ? (
                  <Link to={`/runs/${encodeURIComponent(r.runId)}`}>
                    <code className="run-id">{r.runId}</code>
                  </Link>
                ) : (
                  <span className="muted">not stored</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

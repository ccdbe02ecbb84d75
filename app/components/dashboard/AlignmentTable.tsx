/** Alignment with the expert mean: one row per method, Pearson r at trajectory and outcome level. */
import type { PearsonResult } from "../../domain/stats/index.ts";
import type { AlignmentSummary } from "../../domain/validation/alignment-summary.ts";
import { formatCi, formatCoefficient, formatP } from "./format.ts";
import { ScrollX } from "../ScrollX.tsx";
import { Term } from "../Term.tsx";

function PearsonCells({ result }: { result: PearsonResult }) {
  if (result.r === null) {
    return (
      <>
        <td colSpan={2}>
          — <span className="reason">{result.reason ?? "undefined"}</span>
        </td>
        <td className="num">{result.n}</td>
        <td className="num">—</td>
      </>
    );
  }
  return (
    <>
      <td className="num">
        <strong>{formatCoefficient(result.r)}</strong>
      </td>
      <td className="num">{formatP(result.p)}</td>
      <td className="num">{result.n}</td>
      <td className="num">{formatCi(result.ci)}</td>
    </>
  );
}

export function AlignmentTable({ table }: { table: AlignmentSummary }) {
  if (table.unitCount === 0) {
    return (
      <p className="empty-state">
        No expert labels yet — alignment is measured against the mean expert score on each (snippet, topic).
      </p>
    );
  }
  if (table.rows.length === 0) {
    return (
      <p className="empty-state">
        No evaluations of these runs yet — there is nothing to align with the {table.unitCount} expert-scored units.
      </p>
    );
  }
  return (
    <section className="dash-panel" data-testid="alignment-table">
      <ScrollX label="Alignment with the expert mean">
        <table className="data-table">
          <thead>
            <tr>
              <th rowSpan={2}>Method</th>
              <th colSpan={4}>Trajectory (all units)</th>
              <th colSpan={4}>Outcome (final snippets)</th>
            </tr>
            <tr>
              {[0, 1].map((i) => (
                <Headers key={i} />
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr key={row.key} className={`method-${row.method}`}>
                <td>
                  {row.label}
                  {row.skippedNoValue > 0 ? (
                    <span className="reason">
                      {" "}
                      {row.skippedNoValue} of {row.units} units without a value
                    </span>
                  ) : null}
                </td>
                <PearsonCells result={row.trajectory} />
                <PearsonCells result={row.outcome} />
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>
      <p className="dash-note">
        Reference: mean expert score per (snippet, topic), units with at least {table.minExpertLabels} expert label
        {table.minExpertLabels === 1 ? "" : "s"} ({table.unitCount} units). Evaluator: s[k] at the snippet's last turn
        {table.s0 !== undefined ? (
          <>
            {" "}
            (
            <span data-testid="alignment-s0">
              <Term k="s0" /> = {table.s0}
            </span>{" "}
            before a topic's first located turn, as in <code>socrates metrics</code>)
          </>
        ) : null}
        ; per-turn baseline: 1 + 4 · mean pair agreement there; both on 1–5. Pearson r with two-sided p and a Fisher-z
        95% CI.
      </p>
    </section>
  );
}

function Headers() {
  return (
    <>
      <th className="num">
        <Term k="r" />
      </th>
      <th className="num">
        <Term k="p" />
      </th>
      <th className="num">
        <Term k="n" />
      </th>
      <th className="num">
        <Term k="CI" />
      </th>
    </>
  );
}

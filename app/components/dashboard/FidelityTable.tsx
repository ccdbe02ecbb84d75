/** Persona fidelity (A/B) per simulator backbone: pairs whose majority names the higher level. */
import type { AbSummary } from "../../domain/validation/index.ts";
import { formatPercent } from "./format.ts";

export function FidelityTable({ summary }: { summary: Pick<AbSummary, "fidelity" | "overall" | "unlabelledPairs"> }) {
  if (summary.fidelity.length === 0) {
    return <p className="empty-state">No A/B labels yet — fidelity appears once pairs have crowd choices.</p>;
  }
  return (
    <section className="dash-panel" data-testid="fidelity-table">
      <table className="data-table">
        <thead>
          <tr>
            <th>Simulator backbone</th>
            <th className="num">Pairs</th>
            <th className="num">Correct</th>
            <th className="num">No majority</th>
            <th className="num">Labels</th>
            <th className="num">Fidelity</th>
          </tr>
        </thead>
        <tbody>
          {summary.fidelity.map((f) => (
            <tr key={f.backbone}>
              <td>{f.backbone}</td>
              <td className="num">{f.pairs}</td>
              <td className="num">{f.correct}</td>
              <td className="num">{f.noMajority}</td>
              <td className="num">{f.labels}</td>
              <td className="num">
                <strong>{formatPercent(f.fidelity)}</strong>
              </td>
            </tr>
          ))}
          {summary.fidelity.length > 1 ? (
            <tr className="total-row">
              <td>All backbones</td>
              <td className="num">{summary.overall.pairs}</td>
              <td className="num">{summary.overall.correct}</td>
              <td className="num">{summary.overall.noMajority}</td>
              <td className="num">{summary.overall.labels}</td>
              <td className="num">
                <strong>{formatPercent(summary.overall.fidelity)}</strong>
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
      <p className="dash-note">
        Correct: the majority choice names the conversation with the higher reactiveness level; a tie counts as not correct.
        {summary.unlabelledPairs === 1 ? " 1 pair without labels yet is not counted." : ""}
        {summary.unlabelledPairs > 1 ? ` ${summary.unlabelledPairs} pairs without labels yet are not counted.` : ""}
      </p>
    </section>
  );
}

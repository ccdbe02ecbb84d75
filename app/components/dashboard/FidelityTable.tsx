/**
 * Persona fidelity (A/B) per simulator backbone, the paper's Table 1 layout: pairs whose
 * majority names the higher level, and nominal alpha over that backbone's labels with its CI.
 */
import type { AbSummary } from "../../domain/validation/index.ts";
import type { LevelAgreement } from "../../domain/validation/consensus-agreement.ts";
import { formatCi, formatCoefficient, formatPercent } from "./format.ts";
import { ScrollX } from "../ScrollX.tsx";

export type FidelitySummary = Pick<AbSummary, "fidelity" | "overall" | "unlabelledPairs" | "alphaByBackbone" | "nominal" | "pairableUnits">;

/** Alpha, its bootstrap CI and the pairable units it rests on. */
function AlphaCells({ nominal, units }: { nominal: LevelAgreement | undefined; units: number }) {
  return (
    <>
      <td className="num">{formatCoefficient(nominal?.result.alpha)}</td>
      <td className="num">{formatCi(nominal?.bootstrap.ci)}</td>
      <td className="num">{units}</td>
    </>
  );
}

export function FidelityTable({ summary }: { summary: FidelitySummary }) {
  const alphaOf = new Map(summary.alphaByBackbone.map((a) => [a.backbone, a]));
  if (summary.fidelity.length === 0) {
    return <p className="empty-state">No A/B labels yet — fidelity appears once pairs have crowd choices.</p>;
  }
  return (
    <section className="dash-panel" data-testid="fidelity-table">
      <ScrollX label="Persona fidelity per simulator backbone">
        <table className="data-table">
          <thead>
            <tr>
              <th>Simulator backbone</th>
              <th className="num">Pairs</th>
              <th className="num">Correct</th>
              <th className="num">No majority</th>
              <th className="num">Labels</th>
              <th className="num">Fidelity</th>
              <th className="num">Nominal α</th>
              <th className="num">95% CI</th>
              <th className="num">n units</th>
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
                <AlphaCells nominal={alphaOf.get(f.backbone)?.nominal} units={alphaOf.get(f.backbone)?.pairableUnits ?? 0} />
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
                <AlphaCells nominal={summary.nominal} units={summary.pairableUnits} />
              </tr>
            ) : null}
          </tbody>
        </table>
      </ScrollX>
      <p className="dash-note">
        Correct: the majority choice names the conversation with the higher reactiveness level; a tie counts as not correct. Nominal α: agreement
        on the choices over that backbone's pairs with two or more labels (n units), with its bootstrap 95% CI.
        {summary.unlabelledPairs === 1 ? " 1 pair without labels yet is not counted." : ""}
        {summary.unlabelledPairs > 1 ? ` ${summary.unlabelledPairs} pairs without labels yet are not counted.` : ""}
      </p>
    </section>
  );
}

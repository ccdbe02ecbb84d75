/**
 * Persona fidelity (A/B) per simulator backbone, the paper's Table 1 layout: pairs whose
 * majority names the higher level, and nominal alpha over that backbone's labels with its CI;
 * beside it the automatic proxy from the runs' emotion (measured pairs, agreement, r).
 */
import type { BackboneProxy } from "../../domain/emotion/fidelity-proxy.ts";
import type { AbSummary } from "../../domain/validation/index.ts";
import type { LevelAgreement } from "../../domain/validation/consensus-agreement.ts";
import { formatCi, formatCoefficient, formatP, formatPercent } from "./format.ts";
import { ScrollX } from "../ScrollX.tsx";
import { Term } from "../Term.tsx";

/** The automatic proxy over the study's pairs: per backbone, and all backbones pooled. */
export interface ProxySummary {
  byBackbone: BackboneProxy[];
  overall: BackboneProxy | null;
}

export type FidelitySummary = Pick<
  AbSummary,
  "fidelity" | "overall" | "unlabelledPairs" | "alphaByBackbone" | "nominal" | "pairableUnits"
> & { proxy: ProxySummary };

const PROXY_HEADERS = (
  <>
    <th className="num">Measured pairs</th>
    <th className="num">Auto agreement</th>
    <th className="num">Auto r (p)</th>
  </>
);

/** The proxy's cells for one backbone: "—" where the runs carry no emotion (or too little for r). */
function ProxyCells({ proxy }: { proxy: BackboneProxy | null | undefined }) {
  const r = proxy?.r ?? null;
  return (
    <>
      <td className="num">{proxy ? `${proxy.measuredPairs} of ${proxy.pairs}` : "—"}</td>
      <td className="num">{formatPercent(proxy?.agreement)}</td>
      <td className="num" title={proxy?.reason}>
        {r === null ? "—" : `${formatCoefficient(r)} (${formatP(proxy?.p)})`}
      </td>
    </>
  );
}

/** What the proxy columns mean, and why they may be empty. */
function ProxyNote({ proxy }: { proxy: ProxySummary }) {
  const unmeasured = proxy.byBackbone.every((b) => b.measuredPairs === 0);
  return (
    <p className="dash-note" data-testid="fidelity-proxy-note">
      Automatic proxy (no annotators): the target party's emotional volatility in each run (self-report, else an emotion
      judge) against its assigned reactiveness. Auto agreement: the share of measured pairs whose higher level is the
      strictly more volatile side (a tie is not agreement); r: level against volatility over the runs.
      {unmeasured
        ? " None of these pairs' runs carries emotion yet, hence the dashes: generate pairs with emotion (socrates fidelity pairs --emotion) or score their runs with npx socrates evaluate --method emotion."
        : ""}
    </p>
  );
}

/** The proxy alone, for a study without crowd choices yet. */
function ProxyTable({ proxy }: { proxy: ProxySummary }) {
  return (
    <section className="dash-panel" data-testid="fidelity-proxy-table">
      <ScrollX label="Automatic persona-fidelity proxy per simulator backbone">
        <table className="data-table">
          <thead>
            <tr>
              <th>Simulator backbone</th>
              {PROXY_HEADERS}
            </tr>
          </thead>
          <tbody>
            {proxy.byBackbone.map((p) => (
              <tr key={p.backbone}>
                <td>{p.backbone}</td>
                <ProxyCells proxy={p} />
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>
      <ProxyNote proxy={proxy} />
    </section>
  );
}

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
  const proxyOf = new Map(summary.proxy.byBackbone.map((p) => [p.backbone, p]));
  if (summary.fidelity.length === 0) {
    return (
      <>
        <p className="empty-state">No A/B labels yet — fidelity appears once pairs have crowd choices.</p>
        {summary.proxy.byBackbone.length > 0 ? <ProxyTable proxy={summary.proxy} /> : null}
      </>
    );
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
              <th className="num">
                Nominal <Term k="alpha" />
              </th>
              <th className="num">
                <Term k="CI" />
              </th>
              <th className="num">
                <Term k="n" /> units
              </th>
              {PROXY_HEADERS}
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
                <AlphaCells
                  nominal={alphaOf.get(f.backbone)?.nominal}
                  units={alphaOf.get(f.backbone)?.pairableUnits ?? 0}
                />
                <ProxyCells proxy={proxyOf.get(f.backbone)} />
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
                <ProxyCells proxy={summary.proxy.overall} />
              </tr>
            ) : null}
          </tbody>
        </table>
      </ScrollX>
      <p className="dash-note">
        Correct: the majority choice names the conversation with the higher reactiveness level; a tie counts as not
        correct. Nominal α: agreement on the choices over that backbone's pairs with two or more labels (n units), with
        its bootstrap 95% CI.
        {summary.unlabelledPairs === 1 ? " 1 pair without labels yet is not counted." : ""}
        {summary.unlabelledPairs > 1 ? ` ${summary.unlabelledPairs} pairs without labels yet are not counted.` : ""}
      </p>
      <ProxyNote proxy={summary.proxy} />
    </section>
  );
}

/**
 * Every stored evaluator backbone against one reference backbone, on the same units (the paper's
 * Table 6 question: is the new judge's alignment with the experts significantly worse?). One row
 * per backbone and level; the reference is switched by a plain GET link (`?reference=`).
 */
import type { BackboneComparison, DifferenceTest } from "../../domain/validation/index.ts";
import type { ComparisonPanel } from "../../domain/validation/comparison-panel.ts";
import { formatCi, formatCoefficient, formatP } from "./format.ts";
import { ScrollX } from "../ScrollX.tsx";
import { TermOrText } from "../Term.tsx";

/** The verdict in words, as the panel shows it. */
export const VERDICT_TEXT: Record<DifferenceTest["verdict"], string> = {
  worse: "significantly below the reference",
  better: "significantly above the reference",
  "no difference": "no significant difference",
  undefined: "not testable",
};

const LEVELS = [
  ["trajectory", "Trajectory", "all units"],
  ["outcome", "Outcome", "final snippets only"],
] as const;

/** Column headings; true for the numeric ones. Verdict first, so a phone shows it without scrolling. */
const COLUMNS: [string, boolean][] = [
  ["Backbone", false],
  ["Level", false],
  ["Verdict", false],
  ["Δr", true],
  ["r", true],
  ["r ref.", true],
  ["Williams' t (df)", true],
  ["p", true],
  ["Zou 95% CI", true],
  ["Bootstrap CI", true],
  ["Units / traj.", true],
];

function TestCells({ test }: { test: DifferenceTest }) {
  const { williams, zou, bootstrap } = test;
  return (
    <>
      <td className={`verdict verdict-${test.verdict.replace(" ", "-")}`}>
        {VERDICT_TEXT[test.verdict]}
        {(test.reason ?? williams.reason) ? <span className="reason"> {test.reason ?? williams.reason}</span> : null}
      </td>
      <td className="num">
        <strong>{formatCoefficient(test.difference)}</strong>
      </td>
      <td className="num">{formatCoefficient(test.rCandidate)}</td>
      <td className="num">{formatCoefficient(test.rReference)}</td>
      <td className="num">{williams.t === null ? "—" : `${formatCoefficient(williams.t)} (${williams.df})`}</td>
      <td className="num">{formatP(williams.p)}</td>
      <td className="num">{formatCi(zou?.ci)}</td>
      <td className="num">{formatCi(bootstrap.ci)}</td>
      <td className="num">
        {test.n} / {test.trajectories}
      </td>
    </>
  );
}

function ComparisonRows({ comparison }: { comparison: BackboneComparison }) {
  return (
    <>
      {LEVELS.map(([level, label, units], i) => (
        <tr key={level} data-backbone={comparison.candidate} data-level={level}>
          {i === 0 ? (
            <th rowSpan={2} scope="rowgroup">
              {comparison.candidate}
            </th>
          ) : null}
          <td title={units}>{label}</td>
          <TestCells test={comparison[level]} />
        </tr>
      ))}
    </>
  );
}

function ReferenceSwitch({ panel, hrefFor }: { panel: ComparisonPanel; hrefFor: (backbone: string) => string }) {
  return (
    <nav className="dash-note" aria-label="Reference backbone">
      Compare against:{" "}
      {panel.backbones.map((b, i) => (
        <span key={b}>
          {i > 0 ? " · " : null}
          {b === panel.reference ? (
            <strong aria-current="true">{b}</strong>
          ) : (
            <a href={hrefFor(b)} data-reference={b}>
              {b}
            </a>
          )}
          {b === panel.defaultReference ? " (default)" : null}
        </span>
      ))}
    </nav>
  );
}

function Constants({ panel }: { panel: ComparisonPanel }) {
  const first = panel.comparisons[0];
  const { s0, minExpertLabels } = panel.constants;
  return (
    <p className="dash-note" data-testid="comparison-constants">
      Trajectory: all units; outcome: final snippets only. Same units for both backbones: those where the expert mean
      and both have a value (at least {minExpertLabels} expert label{minExpertLabels === 1 ? "" : "s"} per unit
      {s0 !== undefined ? `; s0 = ${s0}` : ""}). Δr = r(backbone) − r(reference) against the expert mean; Williams' t
      (Steiger 1980, eq. 7, df = n − 3) with two-sided p; Zou's (2007) 95% CI of Δr from Fisher-z intervals; a paired
      percentile bootstrap over trajectories ({first.trajectory.bootstrap.draws} draws, seed{" "}
      {first.trajectory.bootstrap.seed}, {Math.round(first.trajectory.bootstrap.level * 100)}%) as a check. Verdict:
      Williams' p &lt; α = {first.alpha}.
    </p>
  );
}

export function BackboneComparisonPanel({
  panel,
  hrefFor,
}: {
  panel: ComparisonPanel;
  hrefFor: (backbone: string) => string;
}) {
  return (
    <section className="dash-panel" data-testid="backbone-comparison">
      <h3>
        Difference from the reference backbone: <span data-testid="comparison-reference">{panel.reference}</span>
      </h3>
      {panel.unknownReference !== null ? (
        <p className="notice notice-warning" role="status">
          No stored backbone is called “{panel.unknownReference}”; comparing against the default, {panel.reference},
          instead.
        </p>
      ) : null}
      <ReferenceSwitch panel={panel} hrefFor={hrefFor} />
      {panel.comparisons.length === 0 ? (
        <p className="empty-state">
          Only {panel.reference} has evaluated these runs. Evaluate them with another backbone (
          <code>socrates validate-evaluator --study … --backbone …</code>) to compare.
        </p>
      ) : (
        <>
          <ScrollX label="Difference from the reference backbone">
            <table className="data-table">
              <thead>
                <tr>
                  {COLUMNS.map(([name, numeric]) => (
                    <th key={name} scope="col" className={numeric ? "num" : undefined}>
                      <TermOrText text={name} />
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {panel.comparisons.map((c) => (
                  <ComparisonRows key={c.candidate} comparison={c} />
                ))}
              </tbody>
            </table>
          </ScrollX>
          <Constants panel={panel} />
        </>
      )}
    </section>
  );
}

/**
 * The dashboard section that differs by task type, keyed by task-type id (app/domain/tasks):
 * consensus studies compare the evaluator with the experts, A/B studies show persona fidelity.
 * The mapped type makes a new task type a compile error here until its section is added.
 */
import type { ReactElement } from "react";
import { AB_REACTIVENESS, CONSENSUS_SNIPPET, type TaskTypeId } from "../../domain/tasks/ids.ts";
import type { AlignmentSummary } from "../../domain/validation/alignment-summary.ts";
import type { ComparisonPanel } from "../../domain/validation/comparison-panel.ts";
import { AlignmentTable } from "./AlignmentTable.tsx";
import { BackboneComparisonPanel } from "./BackboneComparisonPanel.tsx";
import { FidelityTable, type FidelitySummary } from "./FidelityTable.tsx";
import { TrendChart } from "./TrendChart.tsx";

/** The type-specific figures of the dashboard view; each type fills its own and leaves the others null. */
export interface TypeFigures {
  pool: string;
  alignment: AlignmentSummary | null;
  /** Figure 5 drawn by the server (null: no expert scores yet). */
  trendSvg: string | null;
  /** Every evaluator backbone against the chosen reference (null without alignment). */
  comparison: ComparisonPanel | null;
  /** The page's address with another reference backbone chosen. */
  referenceHref: (backbone: string) => string;
  fidelity: FidelitySummary | null;
}

export const TYPE_SECTIONS: { [Id in TaskTypeId]: (figures: TypeFigures) => ReactElement } = {
  [CONSENSUS_SNIPPET]: ({ pool, alignment, trendSvg, comparison, referenceHref }) => (
    <section className="dash-section">
      <h2>Does the evaluator agree with the experts?</h2>
      {alignment ? (
        <>
          <AlignmentTable table={alignment} />
          {comparison ? <BackboneComparisonPanel panel={comparison} hrefFor={referenceHref} /> : null}
          <TrendChart svg={trendSvg} />
        </>
      ) : (
        <p className="empty-state">Alignment is measured against expert labels; this is a {pool} study. Open the expert study on the same snippets to see it.</p>
      )}
    </section>
  ),
  [AB_REACTIVENESS]: ({ fidelity }) => (
    <section className="dash-section">
      <h2>Persona fidelity per simulator backbone</h2>
      {fidelity ? <FidelityTable summary={fidelity} /> : null}
    </section>
  ),
};

export function TypeFiguresSection({ kind, ...figures }: TypeFigures & { kind: TaskTypeId }) {
  const Section = TYPE_SECTIONS[kind];
  return <Section {...figures} />;
}

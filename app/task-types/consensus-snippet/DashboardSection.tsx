/** A consensus study's dashboard section: does the evaluator agree with the experts (alignment, comparison, trend)? */
import { AlignmentTable } from "../../components/dashboard/AlignmentTable.tsx";
import { BackboneComparisonPanel } from "../../components/dashboard/BackboneComparisonPanel.tsx";
import { DashboardChart, TrendChart } from "../../components/dashboard/TrendChart.tsx";
import { StoppingRulePanel } from "../../components/dashboard/StoppingRulePanel.tsx";
import type { TypeFigures } from "../../components/dashboard/type-figures.ts";

export const ConsensusDashboardSection = ({
  pool,
  alignment,
  charts,
  comparison,
  referenceHref,
  stopping,
}: TypeFigures) => (
  <>
    {stopping ? <StoppingRulePanel panel={stopping} /> : null}
    <section className="dash-section">
      <h2>Does the evaluator agree with the experts?</h2>
      {alignment ? (
        <>
          <AlignmentTable table={alignment} />
          <DashboardChart
            chart={charts.alignment}
            testId="alignment-chart"
            fileName="alignment-outcome"
            label="Each method's score against the expert mean on every final snippet and topic, with the line of agreement"
          />
          {comparison ? <BackboneComparisonPanel panel={comparison} hrefFor={referenceHref} /> : null}
          <TrendChart chart={charts.trend} />
        </>
      ) : (
        <p className="empty-state">
          Alignment is measured against expert labels; this is a {pool} study. Open the expert study on the same
          snippets to see it.
        </p>
      )}
    </section>
  </>
);

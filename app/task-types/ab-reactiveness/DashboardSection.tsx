/** An A/B study's dashboard section: persona fidelity per simulator backbone. */
import { FidelityTable } from "../../components/dashboard/FidelityTable.tsx";
import { DashboardChart } from "../../components/dashboard/TrendChart.tsx";
import type { TypeFigures } from "../../components/dashboard/type-figures.ts";

export const AbDashboardSection = ({ fidelity, charts }: TypeFigures) => (
  <section className="dash-section">
    <h2>Persona fidelity per simulator backbone</h2>
    {fidelity ? <FidelityTable summary={fidelity} /> : null}
    <DashboardChart
      chart={charts.fidelity}
      testId="fidelity-chart"
      fileName="persona-fidelity"
      label="Persona fidelity per simulator backbone: a dot per backbone, a bar for its Wilson 95% interval"
    />
  </section>
);

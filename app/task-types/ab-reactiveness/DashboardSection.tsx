/** An A/B study's dashboard section: persona fidelity per simulator backbone. */
import { FidelityTable } from "../../components/dashboard/FidelityTable.tsx";
import type { TypeFigures } from "../../components/dashboard/type-figures.ts";

export const AbDashboardSection = ({ fidelity }: TypeFigures) => (
  <section className="dash-section">
    <h2>Persona fidelity per simulator backbone</h2>
    {fidelity ? <FidelityTable summary={fidelity} /> : null}
  </section>
);

/** What the dashboard hands a task type's section (app/task-types/<id>/DashboardSection.tsx). */
import type { AlignmentSummary } from "../../domain/validation/alignment-summary.ts";
import type { ComparisonPanel } from "../../domain/validation/comparison-panel.ts";
import type { FidelitySummary } from "./FidelityTable.tsx";

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

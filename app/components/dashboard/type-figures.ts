/** What the dashboard hands a task type's section (app/task-types/<id>/DashboardSection.tsx). */
import type { AlignmentSummary } from "../../domain/validation/alignment-summary.ts";
import type { ComparisonPanel } from "../../domain/validation/comparison-panel.ts";
import type { FidelitySummary } from "./FidelityTable.tsx";
import type { FramedChart } from "../charts/ChartFrame.tsx";
import type { StoppingPanel } from "../../domain/estimation/stopping-panel.ts";

/** The type-specific figures of the dashboard view; each type fills its own and leaves the others null. */
export interface TypeFigures {
  pool: string;
  alignment: AlignmentSummary | null;
  /** The charts the server drew, by key ("trend", "alignment", "fidelity"; a key without data is absent). */
  charts: Partial<Record<string, FramedChart>>;
  /** Every evaluator backbone against the chosen reference (null without alignment). */
  comparison: ComparisonPanel | null;
  /** The page's address with another reference backbone chosen. */
  referenceHref: (backbone: string) => string;
  fidelity: FidelitySummary | null;
  /** Consensus studies: the stopping rule and an active study's draw log (issue 33); absent for other types. */
  stopping?: StoppingPanel | null;
}

/**
 * What the study dashboard's stopping rule shows (issue 33, Build 4): per mediator and quantity the
 * current estimate and the further labelled runs to the target half-width, and an active study's
 * draw log. Filled by app/server/estimation/stopping-rule.server.ts.
 */
import type { MeanEstimate } from "./mean-estimators.ts";
import type { RunQuantity } from "./run-quantities.ts";

export type StoppingSource = "active" | "ppi" | "human";

export interface StoppingRow {
  mediator: string;
  quantity: RunQuantity;
  estimate: MeanEstimate | null;
  /**
   * Further labelled runs to reach the target (labelsToReport: at least up to the 30 labels an interval needs); null
   * without an estimate.
   */
  further: number | null;
}

export interface DrawLogRow {
  position: number;
  runId: string;
  mediator: string;
  /** The run's size p_i within its stratum. */
  size: number;
  /** π_i at the stratum's current prefix. */
  pi: number;
  /** Its labels are complete and every earlier run of its stratum's order too: it is in the estimate. */
  inPrefix: boolean;
}

export interface StoppingPanel {
  target: number;
  source: StoppingSource | null;
  /** The plan whose runs PPI++ calibrates over (stratified studies). */
  planName: string | null;
  rows: StoppingRow[];
  /** What the panel needs and lacks, in words; null when it has figures. */
  empty: string | null;
  active: {
    judges: string[];
    budget: number | null;
    population: number;
    drawn: number;
    /** Drawn runs waiting beyond their stratum's complete prefix (left out of the estimate). */
    leftOut: number;
    draws: DrawLogRow[];
  } | null;
}

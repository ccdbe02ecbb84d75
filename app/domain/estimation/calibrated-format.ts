/**
 * How the calibrated estimates read in `socrates estimate`, the report's "Human-calibrated scores"
 * and the Benchmark page: values on the 0–1 scale with three decimals, the 95% interval as ± its
 * half-width or in brackets; one wording for the mediators, domains and quantities.
 */
import type { CalibratedRow } from "./calibrated.ts";
import { MIN_LABELS_FOR_INTERVAL, type MeanEstimate } from "./mean-estimators.ts";
import type { RunQuantity } from "./run-quantities.ts";

export const UNMEDIATED = "no mediator";
export const ALL_DOMAINS = "all domains";

export const QUANTITY_LABELS: Record<RunQuantity, string> = {
  outcome: "outcome: C at the final snippet",
  trajectory: "trajectory: mean C over the snippets",
};

export const mediatorName = (row: Pick<CalibratedRow, "mediator">) => row.mediator ?? UNMEDIATED;
export const domainName = (row: Pick<CalibratedRow, "domain">) => row.domain ?? ALL_DOMAINS;

const three = (x: number) => x.toFixed(3);

/** Marks an interval from fewer labelled units than a normal interval needs (docs/estimation.md). */
export const PROVISIONAL_MARK = "†";
export const PROVISIONAL_NOTE = `${PROVISIONAL_MARK} fewer than ${MIN_LABELS_FOR_INTERVAL} labelled runs: the interval is provisional (too narrow too often; docs/estimation.md)`;
export const isProvisional = (e: MeanEstimate) => e.labelled < MIN_LABELS_FOR_INTERVAL;
const mark = (e: MeanEstimate) => (isProvisional(e) ? ` ${PROVISIONAL_MARK}` : "");

/** "0.612 ± 0.041" (with † when provisional), or "—" without an estimate. */
export function plusMinus(e: MeanEstimate | null): string {
  return e ? `${three(e.estimate)} ± ${three(e.halfWidth)}${mark(e)}` : "—";
}

/** "0.612 [0.571, 0.653]" (with † when provisional), or "—" without an estimate. */
export function withInterval(e: MeanEstimate | null): string {
  return e ? `${three(e.estimate)} [${three(e.lower)}, ${three(e.upper)}]${mark(e)}` : "—";
}

/** "12 / 30": runs with a complete expert value of the runs. */
export const labelledOfRuns = (row: Pick<CalibratedRow, "labelled" | "runs">) => `${row.labelled} / ${row.runs}`;

/** More labels to the target, or "—" without an estimate. */
export const labelsText = (n: number | null) => (n === null ? "—" : String(n));

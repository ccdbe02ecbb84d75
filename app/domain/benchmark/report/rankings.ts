/** A mediator's score for a ranking (compared with rankingAgreement: Spearman ρ and Kendall τ-b, each with its p). */
import { meanOf } from "./cells.ts";

/** Mean score per mediator; mediators with no value are left out of the ranking. */
export function mediatorScores(values: ReadonlyMap<string, readonly (number | null)[]>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [mediator, list] of values) {
    const mean = meanOf(list);
    if (mean !== null) out[mediator] = mean;
  }
  return out;
}

/** Mediator rankings compared with rankingAgreement: Spearman ρ and Kendall τ-b, each with its p. */
import { rankingAgreement, type RankingAgreementResult } from "../../metrics/ranking-agreement.ts";
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

export function agreement(first: Record<string, number>, second: Record<string, number>): RankingAgreementResult {
  return rankingAgreement(first, second);
}

// Ranking agreement between two mediator score maps (backbone and run robustness).
import { kendallTauB, spearman, type KendallResult, type SpearmanResult } from "../stats/correlation.ts";
import { assertFiniteNumber } from "./numeric.ts";

export interface RankingAgreementResult {
  /** Mediators scored in both maps, sorted by name; the correlations use exactly these. */
  common: string[];
  /** Left out because only one map scores them. */
  onlyInFirst: string[];
  onlyInSecond: string[];
  /** Rank among the common mediators, 1 = highest score, ties share their average rank. */
  firstRanks: Record<string, number>;
  secondRanks: Record<string, number>;
  spearman: SpearmanResult;
  kendall: KendallResult;
}

/** Descending ranks (1 = highest); tied scores get the mean of the ranks they span. */
export function averageRanksDescending(scores: readonly number[]): number[] {
  const order = scores.map((score, index) => ({ score, index })).sort((a, b) => b.score - a.score);
  const ranks = new Array<number>(scores.length);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && order[end + 1].score === order[start].score) end++;
    // Positions start..end (0-based) hold ranks start+1..end+1; their mean is the shared rank.
    const shared = (start + end) / 2 + 1;
    for (let i = start; i <= end; i++) ranks[order[i].index] = shared;
    start = end + 1;
  }
  return ranks;
}

export function rankingAgreement(
  first: Readonly<Record<string, number>>,
  second: Readonly<Record<string, number>>,
): RankingAgreementResult {
  for (const [name, map] of [
    ["first", first],
    ["second", second],
  ] as const) {
    for (const [mediator, score] of Object.entries(map)) assertFiniteNumber(score, `${name}[${mediator}]`);
  }
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const common = Object.keys(first)
    .filter((m) => m in second)
    .sort(byName);
  const onlyInFirst = Object.keys(first)
    .filter((m) => !(m in second))
    .sort(byName);
  const onlyInSecond = Object.keys(second)
    .filter((m) => !(m in first))
    .sort(byName);

  const firstScores = common.map((m) => first[m]);
  const secondScores = common.map((m) => second[m]);
  const toRecord = (ranks: number[]) => Object.fromEntries(common.map((m, i) => [m, ranks[i]]));
  return {
    common,
    onlyInFirst,
    onlyInSecond,
    firstRanks: toRecord(averageRanksDescending(firstScores)),
    secondRanks: toRecord(averageRanksDescending(secondScores)),
    // Rank correlations are invariant to the monotone map score → rank, so scores go in directly.
    spearman: spearman(firstScores, secondScores),
    kendall: kendallTauB(firstScores, secondScores),
  };
}

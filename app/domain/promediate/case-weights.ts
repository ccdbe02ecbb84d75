/**
 * Preference weights for a ProMediate party, which its case never gives as numbers. The rule
 * (docs/promediate.md, "Weights"): rank the topics, then give them rank-sum points scaled to 10.
 *
 * Ranking, first rule that applies:
 * 1. The opinions open by ranking issues ("Issue IV is the most important … Issue II is least
 *    important"): topics in the order their "Issue <n>" first appears there; unnamed ones after.
 * 2. Otherwise topics whose own opinion text calls them a "top priority" or "most important"
 *    come first, then the rest by how much the party says about them (longer first).
 * Ties keep the case's topic order. Points: the topic ranked r of n gets n - r + 1; scaled to 10
 * by largest remainder (ties to the better rank), every topic at least 1. Ranks are strict, so
 * with two topics or more the weights are never all equal.
 */

const ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII"];

export type RankRule = "stated-ranking" | "emphasis";

export interface TopicRanking {
  /** Topic indices, most important first. */
  order: number[];
  rule: RankRule;
}

/** The topics a passage ranks by "Issue <n>" (roman or arabic), in order of first mention. */
function statedRanking(preamble: string, topicCount: number): number[] {
  const seen: number[] = [];
  for (const m of preamble.matchAll(/\bissue\s+([IVX]+|\d+)\b/gi)) {
    const mark = m[1].toUpperCase();
    const k = /^\d+$/.test(mark) ? Number(mark) : ROMAN.indexOf(mark) + 1;
    if (k >= 1 && k <= topicCount && !seen.includes(k - 1)) seen.push(k - 1);
  }
  return seen;
}

const EMPHASIS = /\btop priority\b|\bmost important\b/i;

/** Ranks a party's topics from its opinions' preamble and its per-topic opinion texts. */
export function rankTopics(preamble: string, sections: readonly string[]): TopicRanking {
  const n = sections.length;
  const stated = statedRanking(preamble, n);
  if (stated.length >= 2) {
    const rest = sections.map((_, i) => i).filter((i) => !stated.includes(i));
    return { order: [...stated, ...rest], rule: "stated-ranking" };
  }
  const key = (i: number) => [EMPHASIS.test(sections[i]) ? 1 : 0, sections[i].length];
  const order = sections
    .map((_, i) => i)
    .sort((a, b) => {
      const [ea, la] = key(a);
      const [eb, lb] = key(b);
      return eb - ea || lb - la || a - b;
    });
  return { order, rule: "emphasis" };
}

/** Whole-number weights summing to `total`, by rank-sum points (see the file comment); index = rank. */
export function rankWeights(n: number, total = 10): number[] {
  if (n < 1 || n > total) throw new Error(`cannot give ${n} topics whole weights of at least 1 summing to ${total}`);
  const points = Array.from({ length: n }, (_, r) => n - r);
  const sum = points.reduce((a, b) => a + b, 0);
  const exact = points.map((p) => (p * total) / sum);
  const weights = exact.map(Math.floor);
  const byRemainder = exact.map((e, r) => ({ r, rem: e - Math.floor(e) })).sort((a, b) => b.rem - a.rem || a.r - b.r);
  let left = total - weights.reduce((a, b) => a + b, 0);
  for (const { r } of byRemainder) {
    if (left === 0) break;
    weights[r] += 1;
    left -= 1;
  }
  // A topic scaled to 0 takes a point from the lowest-ranked of the heaviest (only with eight topics).
  for (let r = n - 1; r >= 0; r--) {
    if (weights[r] === 0) {
      weights[r] = 1;
      weights[weights.lastIndexOf(Math.max(...weights))] -= 1;
    }
  }
  return weights;
}

/** The weight of each topic (by topic index) from a ranking. */
export function weightsFromRanking(ranking: TopicRanking): number[] {
  const byRank = rankWeights(ranking.order.length);
  const weights = new Array<number>(ranking.order.length);
  ranking.order.forEach((topic, rank) => {
    weights[topic] = byRank[rank];
  });
  return weights;
}

// Ranking agreement between two mediator score maps, with ties.
// Expected correlations are from scipy.stats.spearmanr / kendalltau (tau-b) on the same numbers;
// p-values come from the stats module and are only checked to 1e-6 here (their accuracy is its job).
import { describe, expect, it } from "vitest";
import { averageRanksDescending, rankingAgreement } from "../../../app/domain/metrics/ranking-agreement.ts";

describe("averageRanksDescending", () => {
  it("ranks the highest score 1 and shares ranks between ties", () => {
    // 0.5 and 0.5 occupy ranks 2 and 3 → 2.5 each
    expect(averageRanksDescending([0.9, 0.5, 0.5, 0.1])).toEqual([1, 2.5, 2.5, 4]);
    expect(averageRanksDescending([1, 1, 1])).toEqual([2, 2, 2]);
    expect(averageRanksDescending([])).toEqual([]);
  });
});

describe("rankingAgreement", () => {
  const first = { m1: 0.9, m2: 0.5, m3: 0.5, m4: 0.1, m5: 0.3 };
  const second = { m1: 0.8, m2: 0.6, m3: 0.2, m4: 0.2, m6: 0.7 };

  it("compares the mediators both maps score and reports the rest", () => {
    const result = rankingAgreement(first, second);
    expect(result.common).toEqual(["m1", "m2", "m3", "m4"]);
    expect(result.onlyInFirst).toEqual(["m5"]);
    expect(result.onlyInSecond).toEqual(["m6"]);
    // first:  0.9, 0.5, 0.5, 0.1 → 1, 2.5, 2.5, 4
    // second: 0.8, 0.6, 0.2, 0.2 → 1, 2, 3.5, 3.5
    expect(result.firstRanks).toEqual({ m1: 1, m2: 2.5, m3: 2.5, m4: 4 });
    expect(result.secondRanks).toEqual({ m1: 1, m2: 2, m3: 3.5, m4: 3.5 });
    // Spearman = Pearson of the rank vectors: dx = −1.5, 0, 0, 1.5; dy = −1.5, −0.5, 1, 1
    //   Σdx·dy = 2.25 + 1.5 = 3.75; Σdx² = 4.5; Σdy² = 2.25 + 0.25 + 1 + 1 = 4.5 → ρ = 3.75 / 4.5 = 5/6
    //   scipy: rho = 0.8333333333333335, p = 0.16666666666666652
    expect(result.spearman.n).toBe(4);
    expect(result.spearman.rho).toBeCloseTo(5 / 6, 9);
    expect(result.spearman.p).toBeCloseTo(0.16666666666666652, 6);
    // Kendall τ-b: pairs (first, second):
    //   (m1,m2) +, (m1,m3) +, (m1,m4) +, (m2,m3) tied in first, (m2,m4) +, (m3,m4) tied in second
    //   C = 4, D = 0, n0 = 6, ties in first t = 1, in second u = 1 → 4 / √(5·5) = 0.8
    //   scipy: tau = 0.7999999999999999, p = 0.12597116307723114
    expect(result.kendall.n).toBe(4);
    expect(result.kendall.tau).toBeCloseTo(0.8, 9);
    expect(result.kendall.p).toBeCloseTo(0.12597116307723114, 6);
  });

  it("rejects non-finite scores", () => {
    expect(() => rankingAgreement({ m1: Number.NaN }, { m1: 1 })).toThrow(RangeError);
  });
});

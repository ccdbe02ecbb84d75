import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { kendallTauB, pearson, rankAverage, spearman, StatsInputError } from "../../../app/domain/stats/index.ts";

interface RefCase {
  name: string;
  note: string;
  x: number[];
  y: number[];
  n: number;
  has_ties: boolean;
  pearson: { r: number | null; p: number | null; ci: [number, number] | null };
  spearman: { rho: number | null; p: number | null; method: "exact" | "asymptotic" | null };
  kendall: { tau: number | null; p: number | null; method: "exact" | "asymptotic" | null };
}
const reference = JSON.parse(
  readFileSync(new URL("../../fixtures/stats/correlation-reference.json", import.meta.url), "utf8"),
) as { cases: RefCase[] };

function close(actual: number | null, expected: number | null, tol: number, what: string): void {
  expect(actual === null, `${what}: null-ness`).toBe(expected === null);
  if (actual !== null && expected !== null) expect(Math.abs(actual - expected), what).toBeLessThanOrEqual(tol);
}

/** p-values: 1e-6 absolute, and 1e-6 relative so that far-tail p-values do not collapse to 0. */
function closeP(actual: number | null, expected: number | null, what: string): void {
  close(actual, expected, 1e-6, what);
  if (actual !== null && expected !== null && expected > 0) {
    expect(Math.abs(actual - expected) / expected, `${what} (relative)`).toBeLessThanOrEqual(1e-6);
  }
}

describe("correlations against scipy.stats (fixtures/stats/correlation-reference.json)", () => {
  it("covers the intended cases", () => {
    const names = reference.cases.map((c) => c.name);
    for (const n of [
      "small-ties",
      "n3",
      "large-ties",
      "negative",
      "kendall-exact",
      "kendall-one-discordant",
      "kendall-ties",
    ]) {
      expect(names).toContain(n);
    }
  });
  for (const c of reference.cases) {
    describe(`${c.name}: ${c.note}`, () => {
      it("pearsonr: r 1e-9, p 1e-6 (abs and rel), Fisher CI 1e-9", () => {
        const res = pearson(c.x, c.y);
        expect(res.n).toBe(c.n);
        close(res.r, c.pearson.r, 1e-9, "r");
        closeP(res.p, c.pearson.p, "p");
        expect(res.ci === null).toBe(c.pearson.ci === null);
        if (res.ci && c.pearson.ci) {
          close(res.ci[0], c.pearson.ci[0], 1e-9, "ci low");
          close(res.ci[1], c.pearson.ci[1], 1e-9, "ci high");
        }
        if (res.r === null) expect(res.reason).toBeTruthy();
      });
      it(`spearmanr: rho 1e-9, p 1e-6 (abs and rel), ${c.spearman.method ?? "no"} p`, () => {
        const res = spearman(c.x, c.y);
        close(res.rho, c.spearman.rho, 1e-9, "rho");
        closeP(res.p, c.spearman.p, "p");
        expect(res.method).toBe(c.spearman.method);
      });
      it(`kendalltau (tau-b): tau 1e-9, p 1e-6 (abs and rel), ${c.kendall.method ?? "no"} p`, () => {
        const res = kendallTauB(c.x, c.y);
        close(res.tau, c.kendall.tau, 1e-9, "tau");
        closeP(res.p, c.kendall.p, "p");
        expect(res.method).toBe(c.kendall.method);
      });
    });
  }
});

/** O(n²) tau-b straight from the definition, to check Knight's algorithm on many inputs. */
function naiveTauB(x: number[], y: number[]): number | null {
  let s = 0;
  let tx = 0;
  let ty = 0;
  const n = x.length;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign(x[i] - x[j]);
      const dy = Math.sign(y[i] - y[j]);
      s += dx * dy;
      if (dx !== 0) tx++;
      if (dy !== 0) ty++;
    }
  }
  return tx === 0 || ty === 0 ? null : s / Math.sqrt(tx * ty);
}

describe("kendallTauB", () => {
  it("matches the O(n²) definition on random data with ties", () => {
    const pairs = fc.array(fc.tuple(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 0, max: 6 })), {
      minLength: 3,
      maxLength: 60,
    });
    fc.assert(
      fc.property(pairs, (ps) => {
        const x = ps.map((p) => p[0]);
        const y = ps.map((p) => p[1]);
        const expected = naiveTauB(x, y);
        const got = kendallTauB(x, y).tau;
        return expected === null ? got === null : got !== null && Math.abs(got - expected) <= 1e-12;
      }),
    );
  });
  it("handles a large sample quickly (Knight's O(n log n))", () => {
    const n = 200_000;
    const x = Array.from({ length: n }, (_, i) => (i * 7919) % 1000);
    const y = x.map((v, i) => v + ((i * 104729) % 300));
    const t0 = performance.now();
    const res = kendallTauB(x, y);
    expect(performance.now() - t0).toBeLessThan(10_000); // sanity only; O(n²) would take minutes
    expect(res.tau).toBeGreaterThan(0.5);
    expect(res.p).toBeLessThan(1e-300);
  });
});

describe("rankAverage", () => {
  it("averages tied ranks", () => {
    expect(rankAverage([10, 20, 20, 30])).toEqual([1, 2.5, 2.5, 4]);
    expect(rankAverage([3, 1, 2, 1, 3, 3])).toEqual([5, 1.5, 3, 1.5, 5, 5]);
    expect(rankAverage([])).toEqual([]);
  });
  it("rejects non-finite values, naming the index", () => {
    expect(() => rankAverage([1, NaN])).toThrow(/values\[1\] is not a finite number/);
  });
});

describe("undefined correlations and bad input", () => {
  it("n < 3 gives null with a reason for all three", () => {
    for (const fn of [pearson, spearman, kendallTauB]) {
      const res = fn([1, 2], [2, 1]) as { reason?: string; p: number | null };
      expect(res.p).toBeNull();
      expect(res.reason).toMatch(/n = 2/);
    }
    expect(pearson([1, 2], [2, 1]).r).toBeNull();
    expect(pearson([], []).r).toBeNull();
  });
  it("zero variance gives null with a reason, never NaN", () => {
    expect(pearson([1, 2, 3], [4, 4, 4])).toEqual({
      n: 3,
      r: null,
      p: null,
      ci: null,
      reason: "y is constant (zero variance)",
    });
    // 0.1 summed three times is not 3 × 0.1: constancy must be detected exactly, not via the variance.
    expect(pearson([0.1, 0.1, 0.1, 0.1], [1, 2, 3, 4]).reason).toBe("x is constant (zero variance)");
    expect(spearman([5, 5, 5], [1, 2, 3]).rho).toBeNull();
    expect(kendallTauB([5, 5, 5], [1, 2, 3]).tau).toBeNull();
  });
  it("n = 3 has p but no Fisher CI; perfect correlation gives p = 0", () => {
    const res = pearson([1, 2, 3], [1, 2, 3.5]);
    expect(res.ci).toBeNull();
    expect(res.p).toBeGreaterThan(0);
    const perfect = pearson([1, 2, 3, 4, 5], [2, 4, 6, 8, 10]);
    expect(perfect.r).toBeCloseTo(1, 15);
    expect(perfect.p).toBeLessThan(1e-15);
    expect(perfect.ci![0]).toBeGreaterThan(0.99);
    expect(pearson([1, 2, 3, 4], [1, 2, 3, 4])).toMatchObject({ r: 1, p: 0, ci: [1, 1] });
  });
  it("rejects mismatched lengths and non-finite values, naming the index", () => {
    expect(() => pearson([1, 2, 3], [1, 2])).toThrow(StatsInputError);
    expect(() => pearson([1, 2, 3], [1, 2])).toThrow(/index 2 has no partner/);
    expect(() => spearman([1, 2, Infinity], [1, 2, 3])).toThrow(/x\[2\] is not a finite number/);
    expect(() => kendallTauB([1, 2, 3], [1, NaN, 3])).toThrow(/y\[1\] is not a finite number/);
  });
});

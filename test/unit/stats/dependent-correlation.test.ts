import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  pearson,
  StatsInputError,
  williamsT,
  zouOverlappingCi,
  type OverlappingCorrelations,
} from "../../../app/domain/stats/index.ts";
import { createRng } from "../../../app/domain/stats/rng.ts";

interface RefCase {
  name: string;
  note: string;
  input: OverlappingCorrelations;
  williams: { t: number; df: number; p: number };
  zou: { level: number; ci: [number, number] }[];
}
/** Written by test/fixtures/stats/make_dependent_correlation_reference.py (numpy/scipy, formulas rearranged). */
const reference = JSON.parse(
  readFileSync(new URL("../../fixtures/stats/dependent-correlation-reference.json", import.meta.url), "utf8"),
) as { cases: RefCase[] };

function near(actual: number | null | undefined, expected: number, tol: number, what: string): void {
  expect(actual, `${what}: defined`).not.toBeNull();
  expect(Math.abs((actual as number) - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(tol);
}

/** Rounds as R's round() prints the published values (half away from zero is enough here). */
function roundTo(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

describe("published worked examples (printed precision)", () => {
  it("Williams' t: DEPCOR example (Silver, Hittner & May 2006, Applied Psychological Measurement 30, 152–153)", () => {
    // cocor (Diedenhofen & Musch 2015), tests/testthat/tests.r, "Test williams1959":
    // cocor.dep.groups.overlap(.3, .4, .5, 100, method = "williams1959") → t = −1.0767, p = 0.2843 (DEPCOR's output).
    const res = williamsT({ rjk: 0.3, rjh: 0.4, rkh: 0.5, n: 100 });
    expect(res.df).toBe(97);
    expect(roundTo(res.t!, 4)).toBe(-1.0767);
    expect(roundTo(res.p!, 4)).toBe(0.2843);
  });

  it("Zou's interval: Zou (2007), Psychological Methods 12(4), overlapping example p. 409", () => {
    // r_jk = .396, r_jh = .179, r_kh = .088, n = 66 → 95% CI (−.093, .517); also pinned by cocor's
    // tests/testthat/tests.r, "Test zou2007": cocor.dep.groups.overlap(.396, .179, .088, 66, method = "zou2007").
    const res = zouOverlappingCi({ rjk: 0.396, rjh: 0.179, rkh: 0.088, n: 66 });
    expect(res.difference).toBeCloseTo(0.217, 12);
    expect(res.level).toBe(0.95);
    expect(res.ci!.map((v) => roundTo(v, 3))).toEqual([-0.093, 0.517]);
  });
});

// t and the interval to 1e-9. p to 1e-6 absolute and relative, as for pearson's p: it comes from
// studentTTwoSidedP (jstat's incomplete beta), which agrees with scipy to about 1e-8, not 1e-9.
describe("independent computation (fixtures/stats/dependent-correlation-reference.json)", () => {
  it("covers the published inputs and raw-data cases", () => {
    const names = reference.cases.map((c) => c.name);
    for (const n of ["depcor", "zou2007-overlap", "steiger1980-caseA", "negative", "small-n", "raw-data-11"])
      expect(names).toContain(n);
  });
  for (const c of reference.cases) {
    it(`${c.name}: ${c.note}`, () => {
      const w = williamsT(c.input);
      expect(w.df).toBe(c.williams.df);
      near(w.t, c.williams.t, 1e-9, "t");
      near(w.p, c.williams.p, 1e-6, "p");
      expect(Math.abs(w.p! - c.williams.p) / c.williams.p, "p (relative)").toBeLessThanOrEqual(1e-6);
      for (const z of c.zou) {
        const res = zouOverlappingCi(c.input, z.level);
        expect(res.level).toBe(z.level);
        near(res.ci?.[0], z.ci[0], 1e-9, `lower at ${z.level}`);
        near(res.ci?.[1], z.ci[1], 1e-9, `upper at ${z.level}`);
      }
    });
  }
});

describe("from raw data: the r's of one sample feed both statistics consistently", () => {
  it("a judge that tracks the reference better gets a positive t and an interval above 0", () => {
    // Expert mean j, a good judge k (small noise) and a noisy judge h, 300 cases.
    const rng = createRng(42);
    const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
    const j: number[] = [];
    const k: number[] = [];
    const h: number[] = [];
    for (let i = 0; i < 300; i++) {
      const truth = gauss();
      j.push(truth);
      k.push(truth + 0.5 * gauss());
      h.push(truth + 1.5 * gauss());
    }
    const c = { rjk: pearson(j, k).r!, rjh: pearson(j, h).r!, rkh: pearson(k, h).r!, n: 300 };
    const w = williamsT(c);
    expect(w.t!).toBeGreaterThan(0);
    expect(w.p!).toBeLessThan(0.001);
    const z = zouOverlappingCi(c);
    expect(z.ci![0]).toBeGreaterThan(0);
    expect(z.ci![0]).toBeLessThan(z.difference);
    expect(z.ci![1]).toBeGreaterThan(z.difference);
  });
});

describe("symmetry and invariants", () => {
  // Valid correlation matrices: |R| > 0 by construction (three unit vectors' inner products).
  const validTriple = fc
    .tuple(
      fc.double({ min: -0.95, max: 0.95, noNaN: true }),
      fc.double({ min: -0.95, max: 0.95, noNaN: true }),
      fc.double({ min: -0.95, max: 0.95, noNaN: true }),
      fc.integer({ min: 4, max: 5000 }),
    )
    .filter(([a, b, c]) => 1 - a * a - b * b - c * c + 2 * a * b * c > 1e-6)
    .map(([rjk, rjh, rkh, n]) => ({ rjk, rjh, rkh, n }));

  it("swapping k and h negates t (same p) and mirrors the interval", () => {
    fc.assert(
      fc.property(validTriple, (c) => {
        const swapped = { ...c, rjk: c.rjh, rjh: c.rjk };
        const w = williamsT(c);
        const ws = williamsT(swapped);
        expect(Math.abs(w.t! + ws.t!)).toBeLessThanOrEqual(1e-12 * (1 + Math.abs(w.t!)));
        expect(Math.abs(w.p! - ws.p!)).toBeLessThanOrEqual(1e-12);
        const z = zouOverlappingCi(c);
        const zs = zouOverlappingCi(swapped);
        expect(Math.abs(z.ci![0] + zs.ci![1])).toBeLessThanOrEqual(1e-12);
        expect(Math.abs(z.ci![1] + zs.ci![0])).toBeLessThanOrEqual(1e-12);
      }),
    );
  });

  it("the interval contains the difference, widens with the level and shrinks with n", () => {
    fc.assert(
      fc.property(validTriple, (c) => {
        const z95 = zouOverlappingCi(c, 0.95);
        const z80 = zouOverlappingCi(c, 0.8);
        expect(z95.ci![0]).toBeLessThanOrEqual(z95.difference);
        expect(z95.ci![1]).toBeGreaterThanOrEqual(z95.difference);
        expect(z95.ci![0]).toBeLessThanOrEqual(z80.ci![0] + 1e-12);
        expect(z95.ci![1]).toBeGreaterThanOrEqual(z80.ci![1] - 1e-12);
        const bigger = zouOverlappingCi({ ...c, n: c.n * 4 });
        expect(bigger.ci![1] - bigger.ci![0]).toBeLessThan(z95.ci![1] - z95.ci![0]);
      }),
    );
  });

  it("equal correlations give t = 0, p = 1 and an interval around 0", () => {
    const w = williamsT({ rjk: 0.45, rjh: 0.45, rkh: 0.3, n: 50 });
    expect(w.t).toBe(0);
    expect(w.p).toBe(1);
    const z = zouOverlappingCi({ rjk: 0.45, rjh: 0.45, rkh: 0.3, n: 50 });
    expect(z.difference).toBe(0);
    expect(z.ci![0]).toBeLessThan(0);
    expect(z.ci![1]).toBeGreaterThan(0);
  });
});

describe("undefined and invalid input", () => {
  it("n < 4 gives null t / ci with a reason (n = 4 is the first defined)", () => {
    for (const n of [0, 1, 2, 3]) {
      const w = williamsT({ rjk: 0.5, rjh: 0.2, rkh: 0.3, n });
      expect(w.t).toBeNull();
      expect(w.p).toBeNull();
      expect(w.df).toBe(Math.max(n - 3, 0));
      expect(w.reason).toMatch(/n = \d/);
      const z = zouOverlappingCi({ rjk: 0.5, rjh: 0.2, rkh: 0.3, n });
      expect(z.ci).toBeNull();
      expect(z.difference).toBeCloseTo(0.3, 12);
      expect(z.reason).toMatch(/n = \d/);
    }
    expect(williamsT({ rjk: 0.5, rjh: 0.2, rkh: 0.3, n: 4 }).t).not.toBeNull();
    expect(zouOverlappingCi({ rjk: 0.5, rjh: 0.2, rkh: 0.3, n: 4 }).ci).not.toBeNull();
  });

  it("a perfect correlation gives null with a reason naming the field", () => {
    const cases: [OverlappingCorrelations, string][] = [
      [{ rjk: 1, rjh: 0.5, rkh: 0.5, n: 30 }, "rjk"],
      [{ rjk: 0.5, rjh: -1, rkh: -0.5, n: 30 }, "rjh"],
      [{ rjk: 0.5, rjh: 0.5, rkh: 1, n: 30 }, "rkh"],
    ];
    for (const [c, field] of cases) {
      const w = williamsT(c);
      expect(w.t).toBeNull();
      expect(w.reason).toContain(field);
      const z = zouOverlappingCi(c);
      expect(z.ci).toBeNull();
      expect(z.reason).toContain(field);
    }
  });

  it("a singular or impossible correlation matrix (|R| ≤ 0) gives null with a reason", () => {
    // r_jk = r_jh = .9 forces r_kh ≥ .62; .0 is impossible (|R| < 0).
    for (const c of [{ rjk: 0.9, rjh: 0.9, rkh: 0, n: 30 }]) {
      const w = williamsT(c);
      expect(w.t).toBeNull();
      expect(w.reason).toMatch(/singular or invalid/);
      expect(zouOverlappingCi(c).ci).toBeNull();
    }
  });

  it("throws StatsInputError naming the field for |r| > 1, non-finite r, bad n and bad level", () => {
    const ok = { rjk: 0.5, rjh: 0.2, rkh: 0.3, n: 30 };
    const bad: [Partial<OverlappingCorrelations>, RegExp][] = [
      [{ rjk: 1.2 }, /rjk/],
      [{ rjh: -1.0001 }, /rjh/],
      [{ rkh: Number.NaN }, /rkh/],
      [{ rjk: Number.POSITIVE_INFINITY }, /rjk/],
      [{ n: 30.5 }, /\bn\b/],
      [{ n: -2 }, /\bn\b/],
    ];
    for (const [patch, field] of bad) {
      const input = { ...ok, ...patch } as OverlappingCorrelations;
      expect(() => williamsT(input)).toThrow(StatsInputError);
      expect(() => williamsT(input)).toThrow(field);
      expect(() => zouOverlappingCi(input)).toThrow(field);
    }
    expect(() => williamsT({ ...ok, rjk: "0.5" as unknown as number })).toThrow(/rjk/);
    for (const level of [0, 1, 1.5, -0.1, Number.NaN]) {
      expect(() => zouOverlappingCi(ok, level)).toThrow(StatsInputError);
      expect(() => zouOverlappingCi(ok, level)).toThrow(/level/);
    }
  });
});

import { describe, expect, it } from "vitest";
import {
  bootstrapAlpha,
  bootstrapAlphaSamples,
  createRng,
  krippendorffAlpha,
  quantileSorted,
  randomInt,
  type AlphaLevel,
  type RatingValue,
} from "../../../app/domain/stats/index.ts";
import { LEVELS, randomRatings } from "./helpers.ts";

/**
 * The slow, obviously-correct bootstrap: rebuild each resampled matrix and call krippendorffAlpha.
 * Same RNG sequence as the fast path: per draw, P calls randomInt(rng, P) over the pairable units.
 */
function bruteForceSamples(data: RatingValue[][], level: AlphaLevel, draws: number, seed: number): (number | null)[] {
  const pairable: number[] = [];
  for (let u = 0; u < data[0].length; u++) {
    if (data.filter((row) => row[u] !== null && row[u] !== undefined).length >= 2) pairable.push(u);
  }
  const rng = createRng(seed);
  const out: (number | null)[] = [];
  for (let d = 0; d < draws; d++) {
    const picks = pairable.map(() => pairable[randomInt(rng, pairable.length)]);
    out.push(
      krippendorffAlpha(
        data.map((row) => picks.map((u) => row[u])),
        level,
      ).alpha,
    );
  }
  return out;
}

function expectSameSamples(fast: (number | null)[], slow: (number | null)[], tol = 1e-9): void {
  expect(fast.length).toBe(slow.length);
  for (let i = 0; i < fast.length; i++) {
    const a = fast[i];
    const b = slow[i];
    expect(a === null, `draw ${i}`).toBe(b === null);
    if (a !== null && b !== null) expect(Math.abs(a - b), `draw ${i}`).toBeLessThanOrEqual(tol);
  }
}

const moderate = randomRatings(21, 3, 200, [1, 2, 3, 4, 5], { agree: 0.7, missing: 0.15 });

describe("bootstrapAlpha", () => {
  it("is deterministic for a seed and changes with the seed", () => {
    const a = bootstrapAlpha(moderate, "interval", { draws: 300, seed: 7 });
    const b = bootstrapAlpha(moderate, "interval", { draws: 300, seed: 7 });
    const c = bootstrapAlpha(moderate, "interval", { draws: 300, seed: 8 });
    expect(a).toEqual(b);
    expect(a.ci).not.toEqual(c.ci);
    expect(a).toMatchObject({ draws: 300, seed: 7, undefinedDraws: 0 });
  });

  it("uses 1000 draws, seed 1 and thresholds 0.667 / 0.8 by default", () => {
    const res = bootstrapAlpha(moderate, "ordinal");
    expect(res.draws).toBe(1000);
    expect(res.seed).toBe(1);
    expect(Object.keys(res.pBelow).sort()).toEqual(["0.667", "0.8"]);
  });

  for (const level of LEVELS) {
    it(`${level}: the CI brackets the point estimate and pBelow is a probability`, () => {
      const point = krippendorffAlpha(moderate, level).alpha!;
      const res = bootstrapAlpha(moderate, level, { draws: 500, seed: 3 });
      expect(res.ci).not.toBeNull();
      const [lo, hi] = res.ci!;
      expect(lo).toBeLessThan(point);
      expect(hi).toBeGreaterThan(point);
      expect(hi - lo).toBeLessThan(0.5);
      for (const p of Object.values(res.pBelow)) {
        expect(p).toBeGreaterThanOrEqual(0);
        expect(p).toBeLessThanOrEqual(1);
      }
      expect(res.pBelow["0.667"]).toBeLessThanOrEqual(res.pBelow["0.8"]);
    });
  }

  for (const level of LEVELS) {
    it(`${level}: the fast path equals a brute-force bootstrap draw by draw (1e-9)`, () => {
      const data = randomRatings(5, 4, 30, [0, 1, 2, 3, 5, 8], { agree: 0.5, missing: 0.3 });
      data[0].push(4, 4, 4); // a lone rating and two non-pairable units
      data[1].push(null, null, null);
      data[2].push(null, null, null);
      data[3].push(null, null, null);
      const fast = bootstrapAlphaSamples(data, level, { draws: 200, seed: 11 });
      expectSameSamples(fast, bruteForceSamples(data, level, 200, 11));
    });
  }

  // The ratio level's expected sum per draw is incremental or direct (ratio-kernel.ts); these two
  // data sets take each path (see ratio-kernel.test.ts), zeros included.
  const ratioCases: [string, RatingValue[][]][] = [
    [
      "many distinct values (incremental draws)",
      randomRatings(
        8,
        3,
        500,
        Array.from({ length: 900 }, (_, i) => i / 3),
        { agree: 0.3, missing: 0.1 },
      ),
    ],
    ["few values, many units (direct draws)", randomRatings(9, 2, 3000, [0, 1, 2.5, 4, 10], { agree: 0.6 })],
  ];
  for (const [name, data] of ratioCases) {
    it(`ratio, ${name}: equals a brute-force bootstrap draw by draw (1e-12)`, () => {
      const fast = bootstrapAlphaSamples(data, "ratio", { draws: 60, seed: 4 });
      expectSameSamples(fast, bruteForceSamples(data, "ratio", 60, 4), 1e-12);
    });
  }

  it("counts undefined draws and leaves them out of the CI", () => {
    // Two of three units agree on 1; draws without the third unit have no variation.
    const data: RatingValue[][] = [
      [1, 1, 2],
      [1, 1, 2],
    ];
    const samples = bootstrapAlphaSamples(data, "nominal", { draws: 400, seed: 2 });
    expectSameSamples(samples, bruteForceSamples(data, "nominal", 400, 2));
    const res = bootstrapAlpha(data, "nominal", { draws: 400, seed: 2 });
    const nulls = samples.filter((s) => s === null).length;
    expect(nulls).toBeGreaterThan(0);
    expect(res.undefinedDraws).toBe(nulls);
    const defined = samples.filter((s): s is number => s !== null).sort((a, b) => a - b);
    expect(res.ci).toEqual([quantileSorted(defined, 0.025), quantileSorted(defined, 0.975)]);
  });

  it("has no CI when nothing is pairable", () => {
    const res = bootstrapAlpha(
      [
        [1, null],
        [null, 2],
      ],
      "interval",
      { draws: 50 },
    );
    expect(res).toEqual({ draws: 50, seed: 1, ci: null, pBelow: {}, undefinedDraws: 50 });
  });

  it("supports custom thresholds and validates options", () => {
    const res = bootstrapAlpha(moderate, "nominal", { draws: 100, thresholds: [0.5, 0.9] });
    expect(Object.keys(res.pBelow)).toEqual(["0.5", "0.9"]);
    expect(() => bootstrapAlpha(moderate, "nominal", { draws: 0 })).toThrow(/draws must be a positive integer/);
    expect(() => bootstrapAlpha(moderate, "nominal", { seed: 1.5 })).toThrow(/seed must be an integer/);
    expect(() => bootstrapAlpha(moderate, "nominal", { thresholds: [NaN] })).toThrow(/threshold NaN/);
  });

  it("percentile CI interpolates linearly between order statistics", () => {
    expect(quantileSorted([0, 10], 0.25)).toBeCloseTo(2.5, 12);
    expect(quantileSorted([1, 2, 3, 4, 5], 0.975)).toBeCloseTo(4.9, 12);
    expect(quantileSorted([7], 0.025)).toBe(7);
  });
});

describe("rng", () => {
  it("is reproducible, in [0, 1), and roughly uniform", () => {
    const a = createRng(42);
    const b = createRng(42);
    const xs = Array.from({ length: 20000 }, () => a());
    expect(xs.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => b()));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.01);
    const rng = createRng(1);
    const counts = [0, 0, 0];
    for (let i = 0; i < 3000; i++) counts[randomInt(rng, 3)]++;
    for (const c of counts) expect(c).toBeGreaterThan(900);
    expect(() => randomInt(rng, 0)).toThrow();
    expect(() => createRng(0.5)).toThrow();
  });
});

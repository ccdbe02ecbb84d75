import { describe, expect, it } from "vitest";
import { RatioDrawSums, ratioExpectedSum } from "../../../app/domain/stats/ratio-kernel.ts";
import { createRng, randomInt, type RatingValue } from "../../../app/domain/stats/index.ts";
import { randomRatings } from "./helpers.ts";

/** Σ_c Σ_k n_c n_k δ²(c, k) over ordered pairs, straight from the definition. */
function bruteExpectedSum(pos: Float64Array, counts: Float64Array): number {
  let sum = 0;
  for (let a = 0; a < pos.length; a++) {
    for (let b = 0; b < pos.length; b++) {
      if (a === b || counts[a] === 0 || counts[b] === 0) continue;
      const s = pos[a] + pos[b];
      sum += counts[a] * counts[b] * (s === 0 ? 0 : ((pos[a] - pos[b]) / s) ** 2);
    }
  }
  return sum;
}

const relClose = (actual: number, expected: number, tol: number) =>
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol * Math.abs(expected));

/** The distinct values of the pairable units as positions, and each pairable unit's value codes. */
function pairableUnits(data: RatingValue[][]): { pos: Float64Array; units: number[][] } {
  const codeOf = new Map<number, number>();
  const units: number[][] = [];
  for (let u = 0; u < data[0].length; u++) {
    const vals = data.map((row) => row[u]).filter((v): v is number => typeof v === "number");
    if (vals.length < 2) continue;
    units.push(vals.map((v) => codeOf.get(v) ?? codeOf.set(v, codeOf.size).get(v)!));
  }
  return { pos: Float64Array.from(codeOf.keys()), units };
}

/** The value counts of each bootstrap draw, drawn exactly as bootstrapAlphaSamples draws units. */
function drawCounts(units: number[][], V: number, draws: number, seed: number): Float64Array[] {
  const rng = createRng(seed);
  return Array.from({ length: draws }, () => {
    const counts = new Float64Array(V);
    for (let i = 0; i < units.length; i++) for (const c of units[randomInt(rng, units.length)]) counts[c] += 1;
    return counts;
  });
}

function countsOf(units: number[][], V: number): Float64Array {
  const counts = new Float64Array(V);
  for (const unit of units) for (const c of unit) counts[c] += 1;
  return counts;
}

describe("ratioExpectedSum", () => {
  it("equals the definition with many distinct values, with and without a zero (1e-12)", () => {
    const rng = createRng(3);
    for (const withZero of [false, true]) {
      const V = 1500;
      const pos = Float64Array.from({ length: V }, (_, i) => (withZero && i === 700 ? 0 : 0.5 + rng() * 100));
      const counts = Float64Array.from({ length: V }, () => (rng() < 0.3 ? 0 : 1 + randomInt(rng, 50)));
      counts[700] = 17;
      relClose(ratioExpectedSum(pos, counts, V), bruteExpectedSum(pos, counts), 1e-12);
    }
  });

  it("handles the zero edge: δ²(0, 0) never arises, δ²(0, x > 0) = 1", () => {
    expect(ratioExpectedSum(Float64Array.from([0, 5]), Float64Array.from([3, 4]), 2)).toBe(2 * 3 * 4);
    expect(ratioExpectedSum(Float64Array.from([0, 5]), Float64Array.from([3, 0]), 2)).toBe(0);
    expect(ratioExpectedSum(Float64Array.from([7]), Float64Array.from([9]), 1)).toBe(0);
  });

  it("stays exact for positions too small or too large to pair up (1e-12)", () => {
    const rng = createRng(5);
    const pos = Float64Array.from({ length: 301 }, (_, i) => (i === 0 ? 1e-200 : i === 1 ? 1e200 : 1 + rng() * 10));
    const counts = Float64Array.from({ length: 301 }, () => 1 + randomInt(rng, 9));
    relClose(ratioExpectedSum(pos, counts, 301), bruteExpectedSum(pos, counts), 1e-12);
  });

  it("keeps precision for close values (no 1 − 4xy/(x + y)² cancellation)", () => {
    const pos = Float64Array.from([1e6, 1e6 + 1, 1e6 + 2]);
    const counts = Float64Array.from([2, 3, 4]);
    // δ² = (1 / (2e6 + 1))² etc.: tiny, and still right to 1e-12.
    relClose(ratioExpectedSum(pos, counts, 3), bruteExpectedSum(pos, counts), 1e-12);
  });
});

describe("RatioDrawSums: each path equals a recomputation per draw (1e-12)", () => {
  /** Runs 60 bootstrap draws of `data` through RatioDrawSums, checks each, returns the paths taken. */
  function checkDraws(data: RatingValue[][]): RatioDrawSums["paths"] {
    const { pos, units } = pairableUnits(data);
    const sums = new RatioDrawSums(pos, countsOf(units, pos.length), pos.length);
    for (const draw of drawCounts(units, pos.length, 60, 4)) {
      relClose(sums.expectedSum(draw), bruteExpectedSum(pos, draw), 1e-12);
    }
    return sums.paths;
  }

  it("incremental where few units share a value (most counts stay, few vanish)", () => {
    const values = Array.from({ length: 900 }, (_, i) => i / 3); // includes 0
    expect(checkDraws(randomRatings(8, 3, 500, values, { agree: 0.3, missing: 0.1 })).incremental).toBeGreaterThan(0);
  });

  it("direct where every count changes (few values, many units)", () => {
    expect(checkDraws(randomRatings(9, 2, 3000, [0, 1, 2.5, 4, 10], { agree: 0.6 })).direct).toBeGreaterThan(0);
  });

  it("falls back to the direct sum when the incremental terms cancel", () => {
    const pos = Float64Array.from([1, 2, 3]);
    const sums = new RatioDrawSums(pos, Float64Array.from([1e6, 1, 1e4]), 3);
    const draw = Float64Array.from([1e6, 1, 0]); // E(n') is ~1e-4 of E(n)
    relClose(sums.expectedSum(draw), bruteExpectedSum(pos, draw), 1e-12);
    expect(sums.paths).toEqual({ direct: 0, incremental: 0, fallback: 1 });
  });
});

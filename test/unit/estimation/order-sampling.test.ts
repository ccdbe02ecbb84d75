/**
 * Sequential Poisson sampling (app/domain/estimation/order-sampling.ts): a seeded, input-order free
 * draw order, sizes from the judge's uncertainty, and inclusion probabilities under which the
 * inverse-probability-weighted total is unbiased whatever r the labelling stops at.
 */
import { describe, expect, it } from "vitest";
import {
  drawOrder,
  inclusionProbabilities,
  type SizedUnit,
  sizesFrom,
  UNIFORM_SHARE,
} from "../../../app/domain/estimation/order-sampling.ts";

const population: SizedUnit[] = Array.from({ length: 30 }, (_, i) => ({
  id: `run-${String(i).padStart(2, "0")}`,
  // Mostly certain runs, a few the judge is unsure of, two it is sure of entirely.
  uncertainty: i < 2 ? 0 : i % 5 === 0 ? 1.5 : 0.1 + (i % 3) * 0.05,
}));

describe("sizesFrom", () => {
  it("mixes the normalised uncertainty with a uniform share, sums to 1", () => {
    const sizes = sizesFrom(population);
    const total = population.reduce((s, u) => s + u.uncertainty, 0);
    expect(sizes.reduce((s, p) => s + p, 0)).toBeCloseTo(1, 12);
    population.forEach((u, i) => {
      expect(sizes[i]).toBeCloseTo(((1 - UNIFORM_SHARE) * u.uncertainty) / total + UNIFORM_SHARE / 30, 15);
    });
    // A run the judge is sure of can still be drawn.
    expect(sizes[0]).toBeCloseTo(UNIFORM_SHARE / 30, 15);
  });

  it("is uniform when no run carries uncertainty, or with share 1", () => {
    const flat = population.map((u) => ({ ...u, uncertainty: 0 }));
    expect(sizesFrom(flat)).toEqual(flat.map(() => 1 / 30));
    for (const p of sizesFrom(population, 1)) expect(p).toBeCloseTo(1 / 30, 15);
  });

  it("refuses a share outside (0, 1] and a negative or missing uncertainty, naming the unit", () => {
    expect(() => sizesFrom(population, 0)).toThrow(/uniform share/);
    expect(() => sizesFrom(population, 1.5)).toThrow(/uniform share/);
    expect(() =>
      sizesFrom([
        { id: "a", uncertainty: 1 },
        { id: "b", uncertainty: -0.1 },
      ]),
    ).toThrow(/units\[1\] \(b\)/);
    expect(() => sizesFrom([{ id: "a", uncertainty: Number.NaN }])).toThrow(/units\[0\] \(a\)/);
  });
});

describe("drawOrder", () => {
  it("gives the same order for the same seed, whatever the input order, and another for another seed", () => {
    const first = drawOrder(population, 42);
    const reversed = drawOrder([...population].reverse(), 42);
    expect(reversed).toEqual(first);
    expect(drawOrder(population, 42)).toEqual(first);
    expect(drawOrder(population, 43).map((u) => u.id)).not.toEqual(first.map((u) => u.id));
    expect(new Set(first.map((u) => u.id)).size).toBe(30);
  });

  it("sorts by key = U / size, so uncertain runs tend to come first", () => {
    const order = drawOrder(population, 7);
    for (let i = 1; i < order.length; i++) expect(order[i].key).toBeGreaterThanOrEqual(order[i - 1].key);
    // Over many seeds, the mean position of the uncertain runs (size ≈ 10× the others) is early.
    const uncertain = new Set(population.filter((u) => u.uncertainty > 1).map((u) => u.id));
    let sumUncertain = 0;
    let sumOther = 0;
    for (let seed = 1; seed <= 200; seed++) {
      drawOrder(population, seed).forEach((u, i) => {
        if (uncertain.has(u.id)) sumUncertain += i;
        else sumOther += i;
      });
    }
    const meanUncertain = sumUncertain / (200 * uncertain.size);
    const meanOther = sumOther / (200 * (30 - uncertain.size));
    expect(meanUncertain).toBeLessThan(meanOther / 2);
  });

  it("refuses a repeated id", () => {
    expect(() => drawOrder([...population, { id: "run-03", uncertainty: 0.2 }], 1)).toThrow(/run-03 appears more/);
  });
});

describe("inclusionProbabilities", () => {
  it("is min(1, c·p) with c the (r+1)-th key; the drawn runs all have a key below c", () => {
    const order = drawOrder(population, 11);
    const r = 8;
    const pi = inclusionProbabilities(order, r);
    const c = order[r].key;
    order.forEach((u, i) => {
      expect(pi[i]).toBe(Math.min(1, c * u.size));
      expect(pi[i]).toBeGreaterThan(0);
      if (i < r) expect(u.key).toBeLessThanOrEqual(c);
      // A run certain to be drawn (pi = 1) is among the drawn: its key U/p < 1/p ≤ c.
      if (pi[i] === 1) expect(i).toBeLessThan(r);
    });
  });

  it("is 1 everywhere once every run is drawn; refuses r outside 0..N", () => {
    const order = drawOrder(population, 11);
    expect(inclusionProbabilities(order, 30)).toEqual(order.map(() => 1));
    expect(inclusionProbabilities(order, 0).every((p) => p > 0 && p <= 1)).toBe(true);
    expect(() => inclusionProbabilities(order, 31)).toThrow(/r must be in 0\.\.30/);
    expect(() => inclusionProbabilities(order, 2.5)).toThrow(/r must be/);
  });

  it("keeps the weighted total unbiased at any stopping point (priority sampling)", () => {
    // y is tied to the sizes, as the human score's error is to the judge's uncertainty.
    const y = new Map(population.map((u, i) => [u.id, (u.uncertainty > 1 ? 0.9 : 0.3) + (i % 4) * 0.05]));
    const truth = [...y.values()].reduce((s, v) => s + v, 0);
    const seeds = 4000;
    for (const r of [3, 10]) {
      let sum = 0;
      let sumSq = 0;
      for (let seed = 1; seed <= seeds; seed++) {
        const order = drawOrder(population, seed);
        const pi = inclusionProbabilities(order, r);
        let total = 0;
        for (let i = 0; i < r; i++) total += (y.get(order[i].id) as number) / pi[i];
        sum += total;
        sumSq += total * total;
      }
      const mean = sum / seeds;
      const standardError = Math.sqrt((sumSq / seeds - mean * mean) / seeds);
      expect(standardError).toBeGreaterThan(0);
      expect(Math.abs(mean - truth)).toBeLessThan(4 * standardError);
    }
  });
});

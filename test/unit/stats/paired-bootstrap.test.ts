import { describe, expect, it } from "vitest";
import {
  createRng,
  pairedDifferenceBootstrap,
  pairedDifferenceSamples,
  pearson,
  quantileSorted,
  randomInt,
  StatsInputError,
  type ClusteredTriple,
} from "../../../app/domain/stats/index.ts";

/** Trajectories of `perCluster` units; a tracks the reference with noise `noiseA`, b with `noiseB`. */
function clusteredData(
  seed: number,
  clusters: number,
  perCluster: number,
  noiseA: number,
  noiseB: number,
): ClusteredTriple[] {
  const rng = createRng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
  const units: ClusteredTriple[] = [];
  for (let c = 0; c < clusters; c++) {
    const level = gauss(); // units of one trajectory share a level: they are not independent
    for (let i = 0; i < perCluster; i++) {
      const reference = level + 0.7 * gauss();
      units.push({ cluster: `run-${c}`, reference, a: reference + noiseA * gauss(), b: reference + noiseB * gauss() });
    }
  }
  return units;
}

/** The draw by brute force: replay the generator, copy every unit of each drawn cluster, two pearson() calls. */
function bruteForceDraws(units: ClusteredTriple[], seed: number, draws: number): (number | null)[] {
  const clusters = [...new Set(units.map((u) => u.cluster))]; // order of first appearance
  const rng = createRng(seed);
  const out: (number | null)[] = [];
  for (let d = 0; d < draws; d++) {
    const drawn: ClusteredTriple[] = [];
    for (let i = 0; i < clusters.length; i++) {
      const name = clusters[randomInt(rng, clusters.length)];
      drawn.push(...units.filter((u) => u.cluster === name));
    }
    const ref = drawn.map((u) => u.reference);
    const rA = pearson(
      ref,
      drawn.map((u) => u.a),
    ).r;
    const rB = pearson(
      ref,
      drawn.map((u) => u.b),
    ).r;
    out.push(rA === null || rB === null ? null : rA - rB);
  }
  return out;
}

function t(cluster: string, reference: number, a: number, b: number): ClusteredTriple {
  return { cluster, reference, a, b };
}

function fullSampleDifference(units: ClusteredTriple[]): number {
  const ref = units.map((u) => u.reference);
  return (
    pearson(
      ref,
      units.map((u) => u.a),
    ).r! -
    pearson(
      ref,
      units.map((u) => u.b),
    ).r!
  );
}

describe("pairedDifferenceBootstrap", () => {
  it("uses the project's defaults (1000 draws, seed 1, 95 %) and is determined by the seed", () => {
    const units = clusteredData(3, 40, 6, 0.4, 0.8);
    const first = pairedDifferenceBootstrap(units);
    expect(first).toMatchObject({ draws: 1000, seed: 1, level: 0.95 });
    expect(pairedDifferenceBootstrap(units)).toEqual(first);
    const other = pairedDifferenceBootstrap(units, { seed: 2 });
    expect(other.seed).toBe(2);
    expect(other.ci).not.toEqual(first.ci);
  });

  it("a clearly better method: the interval contains the full-sample difference and lies above 0", () => {
    const units = clusteredData(5, 60, 8, 0.3, 1.2);
    const res = pairedDifferenceBootstrap(units, { draws: 500, seed: 7 });
    const d = fullSampleDifference(units);
    expect(d).toBeGreaterThan(0.1);
    expect(res.ci![0]).toBeGreaterThan(0);
    expect(res.ci![0]).toBeLessThan(d);
    expect(res.ci![1]).toBeGreaterThan(d);
    expect(res.shareAtLeastZero).toBe(1);
    expect(res.undefinedDraws).toBe(0);
    // Swapping the methods mirrors the reading.
    const swapped = pairedDifferenceBootstrap(
      units.map((u) => ({ ...u, a: u.b, b: u.a })),
      { draws: 500, seed: 7 },
    );
    expect(swapped.ci![0]).toBeCloseTo(-res.ci![1], 12);
    expect(swapped.ci![1]).toBeCloseTo(-res.ci![0], 12);
    expect(swapped.shareAtLeastZero).toBe(0);
  });

  it("two equally good methods: the interval straddles 0", () => {
    const units = clusteredData(9, 50, 6, 0.6, 0.6);
    const res = pairedDifferenceBootstrap(units, { draws: 1000, seed: 11 });
    expect(res.ci![0]).toBeLessThan(0);
    expect(res.ci![1]).toBeGreaterThan(0);
    expect(res.shareAtLeastZero!).toBeGreaterThan(0.025);
    expect(res.shareAtLeastZero!).toBeLessThan(0.975);
  });

  it("the level sets the percentiles: 80 % inside 95 %", () => {
    const units = clusteredData(13, 30, 5, 0.5, 0.7);
    const wide = pairedDifferenceBootstrap(units, { draws: 400, level: 0.95 });
    const narrow = pairedDifferenceBootstrap(units, { draws: 400, level: 0.8 });
    expect(narrow.level).toBe(0.8);
    expect(wide.ci![0]).toBeLessThanOrEqual(narrow.ci![0]);
    expect(wide.ci![1]).toBeGreaterThanOrEqual(narrow.ci![1]);
  });
});

describe("pairedDifferenceSamples against a brute-force recomputation", () => {
  it("every draw equals pearson() on the expanded resample with the same generator sequence (1e-9)", () => {
    // Uneven clusters, interleaved in the input: a cluster's units need not be adjacent.
    const units = clusteredData(17, 12, 4, 0.5, 0.9).concat(
      clusteredData(18, 5, 1, 0.5, 0.9).map((u) => ({ ...u, cluster: `solo-${u.cluster}` })),
    );
    units.sort((x, y) => x.reference - y.reference);
    const fast = pairedDifferenceSamples(units, { draws: 60, seed: 123 });
    const slow = bruteForceDraws(units, 123, 60);
    expect(fast).toHaveLength(60);
    for (let d = 0; d < 60; d++) {
      expect(fast[d] === null, `draw ${d} null-ness`).toBe(slow[d] === null);
      if (fast[d] !== null) expect(Math.abs(fast[d]! - slow[d]!), `draw ${d}`).toBeLessThanOrEqual(1e-9);
    }
  });

  it("values far from 0 with a small spread (centring keeps the one-pass sums accurate)", () => {
    const units = clusteredData(21, 15, 3, 0.5, 0.6).map((u) => ({
      ...u,
      reference: 1e6 + u.reference,
      a: 1e6 + u.a,
      b: -1e6 + u.b,
    }));
    const fast = pairedDifferenceSamples(units, { draws: 20, seed: 4 });
    const slow = bruteForceDraws(units, 4, 20);
    for (let d = 0; d < 20; d++) expect(Math.abs(fast[d]! - slow[d]!)).toBeLessThanOrEqual(1e-9);
  });

  it("the interval is the percentile of the defined draws", () => {
    const units = clusteredData(25, 20, 3, 0.4, 0.7);
    const samples = pairedDifferenceSamples(units, { draws: 300, seed: 8 });
    const sorted = samples.filter((d): d is number => d !== null).sort((x, y) => x - y);
    const res = pairedDifferenceBootstrap(units, { draws: 300, seed: 8 });
    expect(res.ci).toEqual([quantileSorted(sorted, 0.025), quantileSorted(sorted, 0.975)]);
  });
});

describe("undefined draws", () => {
  it("draws that are constant in a variable are counted and left out", () => {
    // Each trajectory is constant in every variable (one value per trajectory), so a draw that
    // picks one trajectory only is constant. With 2 trajectories about half the draws are.
    const units = [t("x", 1, 1, 2), t("x", 1, 1, 2), t("y", 3, 2, 1), t("y", 3, 2, 1), t("y", 3, 2, 1)];
    const res = pairedDifferenceBootstrap(units, { draws: 400, seed: 5 });
    const slow = bruteForceDraws(units, 5, 400);
    const undefinedBySlow = slow.filter((d) => d === null).length;
    expect(res.undefinedDraws).toBe(undefinedBySlow);
    expect(res.undefinedDraws).toBeGreaterThan(100);
    expect(res.undefinedDraws).toBeLessThan(300);
    // The defined draws mix both trajectories: r(ref, a) = 1, r(ref, b) = −1.
    expect(res.ci![0]).toBeCloseTo(2, 12);
    expect(res.ci![1]).toBeCloseTo(2, 12);
    expect(res.shareAtLeastZero).toBe(1);
  });

  it("only one method constant within a draw still makes it undefined", () => {
    const units = [t("x", 1, 5, 1), t("x", 2, 5, 3), t("y", 4, 5, 2), t("y", 3, 6, 4)];
    const samples = pairedDifferenceSamples(units, { draws: 200, seed: 9 });
    const slow = bruteForceDraws(units, 9, 200);
    expect(samples.map((d) => d === null)).toEqual(slow.map((d) => d === null));
    expect(samples.some((d) => d === null)).toBe(true);
    expect(samples.some((d) => d !== null)).toBe(true);
  });

  it("no defined draw at all, or no unit: null interval and share, every draw counted", () => {
    const constant = [t("x", 1, 1, 2), t("x", 1, 3, 2)];
    for (const units of [constant, []]) {
      const res = pairedDifferenceBootstrap(units, { draws: 50 });
      expect(res).toEqual({
        draws: 50,
        seed: 1,
        level: 0.95,
        ci: null,
        undefinedDraws: 50,
        shareAtLeastZero: null,
        reason: "no draw has a defined difference",
      });
    }
  });

  it("one cluster: no interval, since every draw repeats it and the spread would read as zero", () => {
    const one = [t("x", 1, 1, 2), t("x", 2, 3, 2), t("x", 3, 2, 5), t("x", 4, 5, 4)];
    const res = pairedDifferenceBootstrap(one, { draws: 20 });
    expect(res).toEqual({
      draws: 20,
      seed: 1,
      level: 0.95,
      ci: null,
      undefinedDraws: 0,
      shareAtLeastZero: null,
      reason: "one cluster: resampling clusters needs at least two",
    });
  });
});

describe("invalid input", () => {
  const ok = [t("x", 1, 2, 3)];
  it("throws StatsInputError naming the unit and field", () => {
    expect(() => pairedDifferenceBootstrap([...ok, { cluster: "y", reference: Number.NaN, a: 1, b: 1 }])).toThrow(
      /units\[1\]\.reference/,
    );
    expect(() => pairedDifferenceBootstrap([{ cluster: "y", reference: 1, a: Infinity, b: 1 }])).toThrow(
      /units\[0\]\.a/,
    );
    expect(() => pairedDifferenceBootstrap([{ cluster: 3 as unknown as string, reference: 1, a: 1, b: 1 }])).toThrow(
      /units\[0\]\.cluster/,
    );
    expect(() => pairedDifferenceBootstrap(ok, { draws: 0 })).toThrow(StatsInputError);
    expect(() => pairedDifferenceBootstrap(ok, { draws: 1.5 })).toThrow(/draws/);
    expect(() => pairedDifferenceBootstrap(ok, { seed: 0.5 })).toThrow(/seed/);
    expect(() => pairedDifferenceBootstrap(ok, { level: 1 })).toThrow(/level/);
    expect(() => pairedDifferenceBootstrap(ok, { level: 0 })).toThrow(StatsInputError);
  });
});

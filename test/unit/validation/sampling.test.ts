// Stratified trajectory sampling and gold mixing: determinism, proportional allocation, counts.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
  goldCount,
  mixGold,
  planStratifiedSample,
  stratifiedSample,
  type SamplingTrajectory,
} from "../../../app/domain/validation/index.ts";

/** `count` runs of one stratum, ids like "hc-gpt-03". */
function stratum(domain: string, mediator: string, count: number): SamplingTrajectory[] {
  return Array.from({ length: count }, (_, i) => ({
    runId: `${domain}-${mediator}-${String(i).padStart(2, "0")}`,
    domain,
    mediator,
  }));
}

const pool = [...stratum("health", "gpt", 6), ...stratum("health", "none", 3), ...stratum("legal", "gpt", 1)];

function reversed<T>(xs: T[]): T[] {
  return [...xs].reverse();
}

describe("stratifiedSample", () => {
  it("allocates by largest remainder, then gives an empty stratum one from the most over-allocated", () => {
    // total 10, n 5: quotas 3, 1.5, 0.5 → floors 3, 1, 0; the one left goes to the tie of remainders
    // 0.5 / 0.5 with the larger stratum (health/none) → 3, 2, 0; legal/gpt then takes one from
    // health/none (0.5 above quota, health/gpt is 0 above) → 3, 1, 1.
    const plan = planStratifiedSample(pool, 5, 7);
    expect(plan.strata).toEqual([
      { domain: "health", mediator: "gpt", available: 6, quota: 3, allocated: 3 },
      { domain: "health", mediator: "none", available: 3, quota: 1.5, allocated: 1 },
      { domain: "legal", mediator: "gpt", available: 1, quota: 0.5, allocated: 1 },
    ]);
    expect(plan.runIds).toHaveLength(5);
    expect(plan.runIds.filter((id) => id.startsWith("health-gpt"))).toHaveLength(3);
    expect(plan.runIds.filter((id) => id.startsWith("health-none"))).toHaveLength(1);
    expect(plan.runIds).toContain("legal-gpt-00");
    expect(plan.runIds).toEqual([...plan.runIds].sort());
  });

  it("is deterministic for a seed and independent of input order", () => {
    const a = stratifiedSample(pool, 6, 42);
    expect(stratifiedSample(reversed(pool), 6, 42)).toEqual(a);
    expect(stratifiedSample([...pool.slice(5), ...pool.slice(0, 5)], 6, 42)).toEqual(a);
    // Different seeds pick different runs within the strata (over a few seeds, not always the same set).
    const distinct = new Set([1, 2, 3, 4, 5, 6, 7, 8].map((seed) => stratifiedSample(pool, 6, seed).join(",")));
    expect(distinct.size).toBeGreaterThan(1);
  });

  it("takes everything when n equals the number available", () => {
    expect(stratifiedSample(pool, 10, 3)).toEqual(pool.map((t) => t.runId).sort());
  });

  it("with fewer slots than strata, picks strata by a seeded draw among equal remainders", () => {
    const four = [...stratum("a", "x", 2), ...stratum("b", "x", 2), ...stratum("c", "x", 2), ...stratum("d", "x", 2)];
    const chosen = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) {
      const plan = planStratifiedSample(four, 2, seed);
      expect(plan.strata.map((s) => s.allocated).sort()).toEqual([0, 0, 1, 1]);
      chosen.add(plan.strata.map((s) => s.allocated).join(""));
    }
    expect(chosen.size).toBeGreaterThan(1);
  });

  it("rejects a sample larger than the pool, n < 1, a fractional n and repeated run ids", () => {
    expect(() => stratifiedSample(pool, 11, 1)).toThrow(/cannot sample 11 trajectories: only 10 are available/);
    expect(() => stratifiedSample(pool, 0, 1)).toThrow(RangeError);
    expect(() => stratifiedSample(pool, 2.5, 1)).toThrow(/whole number/);
    expect(() => stratifiedSample([...pool, pool[0]], 2, 1)).toThrow(
      /trajectories\[10\]: run health-gpt-00 appears twice/,
    );
    expect(() => stratifiedSample([{ runId: "r", domain: "", mediator: "none" }], 1, 1)).toThrow(
      /trajectories\[0\]\.domain/,
    );
  });

  it("always allocates n in total, within each stratum's size, one per stratum when n ≥ strata, within 1 of quota otherwise", () => {
    const sizes = fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 7 });
    fc.assert(
      fc.property(sizes, fc.integer({ min: 1, max: 1000 }), fc.integer(), (counts, nSeed, seed) => {
        const trajectories = counts.flatMap((c, i) => stratum(`d${i % 3}`, `m${i}`, c));
        const n = 1 + (nSeed % trajectories.length);
        const plan = planStratifiedSample(trajectories, n, seed);
        expect(plan.runIds).toHaveLength(n);
        expect(new Set(plan.runIds).size).toBe(n);
        expect(plan.strata.reduce((s, x) => s + x.allocated, 0)).toBe(n);
        for (const s of plan.strata) {
          expect(s.allocated).toBeLessThanOrEqual(s.available);
          if (n >= plan.strata.length) expect(s.allocated).toBeGreaterThanOrEqual(1);
          else expect(Math.abs(s.allocated - s.quota)).toBeLessThan(1);
          const prefix = `${s.domain}-${s.mediator}-`;
          expect(plan.runIds.filter((id) => id.startsWith(prefix))).toHaveLength(s.allocated);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("mixGold", () => {
  const regular = Array.from({ length: 10 }, (_, i) => `r${i}`);
  const gold = ["g0", "g1", "g2", "g3", "g4"];

  it("mixes round(rate × regular) gold items (halves up), capped by the gold available", () => {
    expect(goldCount(10, 5, 0.25)).toBe(3); // 2.5 → 3
    expect(goldCount(10, 5, 0.2)).toBe(2);
    expect(goldCount(10, 5, 0.35)).toBe(4); // 3.5 → 4, though 0.35 × 10 is 3.4999… in floating point
    expect(goldCount(10, 5, 0.34)).toBe(3);
    expect(goldCount(10, 2, 0.5)).toBe(2); // 5 wanted, 2 available
    expect(goldCount(10, 5, 0)).toBe(0);

    const mixed = mixGold(regular, gold, 0.25, 9);
    expect(mixed).toHaveLength(13);
    const golds = mixed.filter((m) => m.isGold).map((m) => m.item);
    expect(golds).toHaveLength(3);
    expect(new Set(golds).size).toBe(3);
    for (const g of golds) expect(gold).toContain(g);
    // Regular items keep their order and all appear once.
    expect(mixed.filter((m) => !m.isGold).map((m) => m.item)).toEqual(regular);
    expect(mixGold(regular, gold.slice(0, 2), 0.5, 9).filter((m) => m.isGold)).toHaveLength(2);
  });

  it("is deterministic for a seed and spreads gold over the positions", () => {
    expect(mixGold(regular, gold, 0.3, 5)).toEqual(mixGold(regular, gold, 0.3, 5));
    const goldSlots = new Set<number>();
    for (let seed = 0; seed < 60; seed++) {
      mixGold(regular, gold, 0.1, seed).forEach((m, slot) => {
        if (m.isGold) goldSlots.add(slot);
      });
    }
    // One gold item among 11 slots; over 60 seeds it lands in most of them, first and last included.
    expect(goldSlots.size).toBeGreaterThanOrEqual(9);
  });

  it("leaves the list as it is at rate 0 and rejects a rate outside [0, 1]", () => {
    expect(mixGold(regular, gold, 0, 1)).toEqual(regular.map((item) => ({ item, isGold: false })));
    expect(mixGold([], gold, 1, 1)).toEqual([]);
    expect(() => mixGold(regular, gold, 1.5, 1)).toThrow(/gold rate must be between 0 and 1/);
    expect(() => mixGold(regular, gold, 0.1, 0.5)).toThrow(/seed must be an integer/);
  });
});

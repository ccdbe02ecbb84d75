/**
 * The automatic persona-fidelity proxy: assigned reactiveness level against measured volatility, per simulator
 * backbone.
 */
import { describe, expect, it } from "vitest";
import { fidelityProxy, type ProxyPair } from "../../../app/domain/emotion/fidelity-proxy.ts";

/** Measured volatility of (run, party); a4 and n1/n2 are runs without emotion. */
const VOLATILITY: Record<string, number> = {
  "a1:A": 0.05,
  "b1:A": 0.2,
  "a2:B": 0.1,
  "b2:B": 0.15,
  "b3:A": 0.05,
  "b4:A": 0.12,
};
const volatilityOf = (run: string, party: string) => VOLATILITY[`${run}:${party}`] ?? null;

const pair = (
  pairId: string,
  backbone: string,
  runA: string,
  runB: string,
  targetParty: string,
  levelA: number,
  levelB: number,
): ProxyPair => ({ pairId, backbone, runA, runB, targetParty, levelA, levelB });
const PAIRS = [
  pair("p1", "m1", "a1", "b1", "A", 0, 3), // .05 < .20 and 0 < 3: ordered
  pair("p2", "m1", "a2", "b2", "B", 3, 1), // .10 < .15 but 3 > 1: not ordered
  pair("p3", "m1", "a1", "b3", "A", 0, 2), // .05 = .05: a tie (not ordered); a1's observation is shared with p1
  pair("p4", "m1", "a4", "b4", "A", 1, 2), // a4 has no emotion: not measured; b4 still an observation
  pair("q1", "m0", "n1", "n2", "A", 0, 3), // neither run has emotion
];

describe("fidelityProxy", () => {
  const [m0, m1] = fidelityProxy(PAIRS, volatilityOf);

  it("reports one row per simulator backbone, by name", () => {
    expect([m0.backbone, m1.backbone]).toEqual(["m0", "m1"]);
  });

  it("counts measured pairs, the ones whose higher level is strictly more volatile, and ties as not ordered", () => {
    expect(m1).toMatchObject({ pairs: 4, measuredPairs: 3, ordered: 1, ties: 1 });
    expect(m1.agreement).toBeCloseTo(1 / 3, 12);
  });

  it("computes r over the distinct (run, target) observations, matching a hand computation", () => {
    // Observations (level, volatility), a1:A once: (0,.05) (3,.20) (3,.10) (1,.15) (2,.05) (2,.12); n = 6.
    // Σx = 11, Σy = .67, Σxy = 1.39, Σx² = 27, Σy² = .0919.
    // Sxy = 1.39 − 11·.67/6 = .97/6; Sxx = 27 − 121/6 = 41/6; Syy = .0919 − .67²/6 = .1025/6.
    // r = .97 / √(41 · .1025) = .97 / 2.05 = 97/205.
    expect(m1.observations).toBe(6);
    expect(Math.abs(m1.r! - 97 / 205)).toBeLessThan(1e-9);
    expect(m1.p).toBeGreaterThan(0);
    expect(m1.p).toBeLessThan(1);
    expect(m1.reason).toBeUndefined();
    // The same r by the textbook formula on the listed observations.
    const x = [0, 3, 3, 1, 2, 2];
    const y = [0.05, 0.2, 0.1, 0.15, 0.05, 0.12];
    const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
    const [mx, my] = [mean(x), mean(y)];
    const cov = x.reduce((s, xi, i) => s + (xi - mx) * (y[i] - my), 0);
    const r = cov / Math.sqrt(x.reduce((s, xi) => s + (xi - mx) ** 2, 0) * y.reduce((s, yi) => s + (yi - my) ** 2, 0));
    expect(Math.abs(m1.r! - r)).toBeLessThan(1e-9);
  });

  it("gives a backbone whose runs carry no emotion no agreement and no r, with the reason", () => {
    expect(m0).toMatchObject({
      pairs: 1,
      measuredPairs: 0,
      ordered: 0,
      ties: 0,
      agreement: null,
      observations: 0,
      r: null,
      p: null,
    });
    expect(m0.reason).toMatch(/n = 0/);
  });

  it("is empty without pairs", () => {
    expect(fidelityProxy([], volatilityOf)).toEqual([]);
  });
});

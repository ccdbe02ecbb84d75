/** The emotion measures on hand-made series (see hand-made.ts for the series, worked out turn by turn). */
import { describe, expect, it } from "vitest";
import {
  emotionalRepair,
  emotionConsensusCorrelation,
  finalEmotion,
  partyVolatility,
  volatility,
} from "../../../app/domain/emotion/measures.ts";
import { GROUP, MEDIATOR_TURNS, POINTS } from "./hand-made.ts";

describe("emotionalRepair (ER)", () => {
  it("averages the gap-normalised change of Ē from m − 1 to min(m + h, T), h = 5 by default", () => {
    // m = 3: Ē[2] = .40 → Ē[min(8, 8)] = .70: (.70 − .40)/(1 − .40) = .5; not cut short (3 + 5 = 8 ≤ T).
    // m = 6: Ē[5] = .45 → Ē[min(11, 8)] = .70: (.70 − .45)/(1 − .45) = .25/.55 = 5/11; cut short.
    // ER = (1/2 + 5/11)/2 = 21/44.
    const er = emotionalRepair(GROUP, MEDIATOR_TURNS);
    expect(er.er).toBeCloseTo(21 / 44, 12);
    expect(er.horizon).toBe(5);
    expect(er.interventions).toBe(2);
    expect(er.beforeAllReported).toBe(0);
    expect(er.truncatedHorizon).toBe(1);
    expect(er.perIntervention.map((p) => [p.m, p.afterTurn])).toEqual([
      [3, 8],
      [6, 8],
    ]);
    expect(er.perIntervention[0]).toMatchObject({ before: 0.4, after: 0.7 });
    expect(er.perIntervention[0].er).toBeCloseTo(0.5, 12);
    expect(er.perIntervention[1].er).toBeCloseTo(5 / 11, 12);
    expect(er.reason).toBeUndefined();
  });

  it("takes its horizon as a parameter", () => {
    // h = 2. m = 3: Ē[2] = .40 → Ē[5] = .45: .05/.6 = 1/12. m = 6: Ē[5] = .45 → Ē[8] = .70: 5/11. No horizon cut short
    // (8 ≤ 8).
    const er = emotionalRepair(GROUP, MEDIATOR_TURNS, { horizon: 2 });
    expect(er.er).toBeCloseTo((1 / 12 + 5 / 11) / 2, 12);
    expect(er.truncatedHorizon).toBe(0);
    expect(() => emotionalRepair(GROUP, MEDIATOR_TURNS, { horizon: 0 })).toThrow(/horizon/);
  });

  it("uses the raw change when Ē[m − 1] = 1 (no gap to normalise by), like IE", () => {
    // m = 2: Ē[1] = 1 → Ē[min(4, 4)] = .9: raw change −.1 (not −.1/0).
    const er = emotionalRepair([null, 1, 1, 0.8, 0.9], [2], { horizon: 2 });
    expect(er.er).toBeCloseTo(-0.1, 12);
    expect(er.perIntervention[0]).toMatchObject({ m: 2, before: 1, afterTurn: 4, after: 0.9 });
  });

  it("counts interventions before every party reported and leaves them out", () => {
    // m = 2: Ē[1] undefined → counted, left out. m = 3 as above: .5.
    const er = emotionalRepair(GROUP, [2, 3]);
    expect(er.er).toBeCloseTo(0.5, 12);
    expect(er.interventions).toBe(2);
    expect(er.beforeAllReported).toBe(1);
    expect(er.perIntervention.map((p) => p.m)).toEqual([3]);
    const early = emotionalRepair(GROUP, [1, 2]);
    expect(early).toMatchObject({
      er: null,
      interventions: 2,
      beforeAllReported: 2,
      reason: "no intervention after every party had reported",
    });
  });

  it("is null without interventions, and refuses a mediator turn outside the run", () => {
    expect(emotionalRepair(GROUP, [])).toMatchObject({
      er: null,
      interventions: 0,
      reason: "no interventions",
      perIntervention: [],
    });
    expect(() => emotionalRepair(GROUP, [9])).toThrow(/outside the run/);
    expect(() => emotionalRepair(GROUP, [0])).toThrow(/outside the run/);
  });
});

describe("finalEmotion (EF)", () => {
  it("is Ē[T] with each party's last score", () => {
    // Ē[8] = (.60 + .80)/2 = .70
    const ef = finalEmotion(GROUP, POINTS);
    expect(ef.value).toBeCloseTo(0.7, 12);
    expect(ef.perParty).toEqual({ A: 0.6, B: 0.8 });
    expect(ef.reason).toBeUndefined();
  });

  it("is null, naming the silent party, when a party never reported", () => {
    const group = new Array(9).fill(null);
    expect(finalEmotion(group, { A: POINTS.A, B: [] })).toEqual({
      value: null,
      perParty: { A: 0.6, B: null },
      reason: "no emotion reported by B",
    });
  });
});

describe("volatility (EV)", () => {
  it("is the mean absolute change between a party's consecutive reports, /100, then the mean over parties", () => {
    // A: |50 − 30| + |60 − 50| = 30 over 2 steps → .15. B: |40 − 50| + |80 − 40| = 50 over 2 → .25. Run: (.15 + .25)/2
    // = .20.
    expect(partyVolatility(POINTS.A)).toBeCloseTo(0.15, 12);
    expect(partyVolatility(POINTS.B)).toBeCloseTo(0.25, 12);
    const ev = volatility(POINTS);
    expect(ev.value).toBeCloseTo(0.2, 12);
    expect(ev.perParty.A).toBeCloseTo(0.15, 12);
  });

  it("leaves out a party with one report (null), and is null when no party reported twice", () => {
    const one = [{ turnId: 3, score: 90, reason: null }];
    expect(partyVolatility(one)).toBeNull();
    expect(partyVolatility([])).toBeNull();
    // Run: mean over A only = .15; C stays null in perParty.
    const ev = volatility({ A: POINTS.A, C: one });
    expect(ev.value).toBeCloseTo(0.15, 12);
    expect(ev.perParty.C).toBeNull();
    expect(volatility({ C: one, D: [] })).toEqual({
      value: null,
      perParty: { C: null, D: null },
      reason: "no party reported twice",
    });
  });
});

describe("emotionConsensusCorrelation (EC)", () => {
  const C = [0, 0.1, 0.2, 0.2, 0.3, 0.3, 0.3, 0.4, 0.5];

  it("is Pearson r of Ē and C over the turns where Ē is defined", () => {
    // Turns 2..8 (n = 7): x = Ē = .40 .40 .50 .45 .45 .50 .70 (Σx = 3.4, Σx² = 1.715)
    //                     y = C = .20 .20 .30 .30 .30 .40 .50 (Σy = 2.2, Σy² = .76), Σxy = 1.13.
    // Sxy = 1.13 − 3.4·2.2/7 = .43/7; Sxx = 1.715 − 3.4²/7 = .445/7; Syy = .76 − 2.2²/7 = .48/7.
    // r = .43 / √(.445 · .48) = 0.9303959931…
    const ec = emotionConsensusCorrelation(GROUP, C);
    expect(ec.n).toBe(7);
    expect(ec.value).toBeCloseTo(0.43 / Math.sqrt(0.445 * 0.48), 12);
    expect(ec.p).toBeGreaterThan(0);
    expect(ec.p).toBeLessThan(0.01);
  });

  it("is null with a reason for a constant series and for fewer than three defined turns", () => {
    const flat = [null, null, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5];
    expect(emotionConsensusCorrelation(flat, C)).toEqual({
      value: null,
      n: 7,
      p: null,
      reason: "x is constant (zero variance)",
    });
    expect(emotionConsensusCorrelation(GROUP, new Array(9).fill(0.2))).toMatchObject({
      value: null,
      reason: "y is constant (zero variance)",
    });
    const late = [null, null, null, null, null, null, null, 0.5, 0.7];
    expect(emotionConsensusCorrelation(late, C)).toMatchObject({
      value: null,
      n: 2,
      reason: "n = 2: at least 3 pairs are needed",
    });
  });

  it("refuses series of different lengths", () => {
    expect(() => emotionConsensusCorrelation(GROUP, C.slice(1))).toThrow(/9 points/);
  });
});

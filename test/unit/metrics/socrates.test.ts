// Hand-worked checks of the SoCRATES metrics on C[0..T] (turns 1..T, C[0] = before any turn).
import { describe, expect, it } from "vitest";
import { aggregateCell } from "../../../app/domain/metrics/aggregate-cell.ts";
import { consensusGain } from "../../../app/domain/metrics/consensus-gain.ts";
import { interventionEffectiveness } from "../../../app/domain/metrics/intervention-effectiveness.ts";
import { firstIntervention, interventionFrequency } from "../../../app/domain/metrics/intervention-frequency.ts";
import { interventionTimeliness } from "../../../app/domain/metrics/intervention-timeliness.ts";
import { timingBinIndex, timingProfile } from "../../../app/domain/metrics/timing-profile.ts";

describe("interventionTimeliness", () => {
  it("has no value (not 0) when consensus never drops", () => {
    // C only rises or stays: no t with C[t] ≤ C[t−1] − 0.05.
    const result = interventionTimeliness([0, 0.25, 0.25, 0.5], [2]);
    expect(result).toMatchObject({ it: null, reason: "no drop events", counted: 0, censored: 0, interventions: 1 });
    expect(result.events).toEqual([]);
    expect(result.delta).toBe(0.05);
    expect(result.window).toBe(10);
  });

  // T = 12, W = 4. Drops (fall ≥ 0.05 from the previous turn):
  //   t = 2  (0.5 → 0.25), t = 10 (0.5 → 0.25), t = 12 (0.25 → 0).
  const C = [0.5, 0.5, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.5, 0.25, 0.25, 0];

  it("scores prompt responses and censors an unanswered event near the end", () => {
    // Mediator at 5 and 11.
    //   t = 2:  m = 5,  d = 3 ≤ 4 → 1 − (3 − 1)/4 = 0.5
    //   t = 10: m = 11, d = 1     → 1 − 0/4      = 1
    //   t = 12: no later mediator turn and 12 + 4 > 12 → censored
    //   IT = (0.5 + 1) / 2 = 0.75
    const result = interventionTimeliness(C, [5, 11], { window: 4 });
    expect(result.it).toBeCloseTo(0.75, 12);
    expect(result).toMatchObject({ counted: 2, censored: 1, window: 4, delta: 0.05 });
    expect(result.events).toEqual([
      { t: 2, responseTurn: 5, d: 3, score: 0.5, censored: false },
      { t: 10, responseTurn: 11, d: 1, score: 1, censored: false },
      { t: 12, responseTurn: null, d: null, score: null, censored: true },
    ]);
  });

  it("gives 0 to an event answered only after the window (d > W)", () => {
    // Mediator at 8 only.
    //   t = 2:  m = 8, d = 6 > 4 → 0
    //   t = 10: no later mediator turn, 10 + 4 = 14 > 12 → censored
    //   t = 12: censored
    //   IT = 0 / 1 = 0
    const result = interventionTimeliness(C, [8], { window: 4 });
    expect(result.it).toBe(0);
    expect(result).toMatchObject({ counted: 1, censored: 2 });
    expect(result.events[0]).toEqual({ t: 2, responseTurn: 8, d: 6, score: 0, censored: false });
  });

  it("scores 1/W at d = W and 0 for an unanswered event whose window fits (t + W = T)", () => {
    // T = 6, W = 4. Drops at t = 1 (0.5 → 0.25) and t = 2 (0.25 → 0).
    //   t = 1: m = 5, d = 4 = W → 1 − 3/4 = 0.25
    //   t = 2: m = 5, d = 3     → 1 − 2/4 = 0.5
    //   t = 6 is no drop. Mediator at 5 only, so nothing is unanswered here.
    const answered = interventionTimeliness([0.5, 0.25, 0, 0, 0, 0, 0], [5], { window: 4 });
    expect(answered.events.map((e) => e.score)).toEqual([0.25, 0.5]);
    expect(answered.it).toBeCloseTo(0.375, 12);

    // T = 6, W = 4, drop at t = 2, no mediator after it; 2 + 4 = 6 ≤ T → scored 0, not censored.
    const unanswered = interventionTimeliness([0.5, 0.5, 0.25, 0.25, 0.25, 0.25, 0.25], [1], { window: 4 });
    expect(unanswered.events).toEqual([{ t: 2, responseTurn: null, d: null, score: 0, censored: false }]);
    expect(unanswered.it).toBe(0);
  });

  it("counts a fall of exactly δ despite floating-point rounding, and not a smaller fall", () => {
    // 0.15 − 0.05 evaluates to 0.09999999999999999 < 0.1, so without a tolerance this drop is missed.
    const exact = interventionTimeliness([0.15, 0.1, 0.1], [2]);
    expect(exact.events.map((e) => e.t)).toEqual([1]);
    // Fall of 0.04 < δ: no event.
    expect(interventionTimeliness([0.14, 0.1, 0.1], [2]).events).toEqual([]);
  });

  it("needs the mediator turn to come strictly after the drop", () => {
    // Drop at t = 2, which is itself a mediator turn; the next one (4) answers it: d = 2, W = 10 → 0.9.
    const result = interventionTimeliness([0.5, 0.5, 0.25, 0.25, 0.25], [2, 4]);
    expect(result.events[0]).toMatchObject({ t: 2, responseTurn: 4, d: 2 });
    expect(result.it).toBeCloseTo(0.9, 12);
  });

  it("rejects mediator turns outside 1..T or out of order", () => {
    expect(() => interventionTimeliness([0, 0, 0], [3])).toThrow(RangeError);
    expect(() => interventionTimeliness([0, 0, 0], [2, 1])).toThrow(RangeError);
    expect(() => interventionTimeliness([0, Number.NaN, 0], [])).toThrow(RangeError);
  });
});

describe("interventionEffectiveness", () => {
  // T = 7.
  const C = [0, 0.25, 0.5, 0.5, 1, 1, 0.75, 0.75];

  it("normalizes by the remaining gap, and uses the raw change when before = 1", () => {
    // h = 5.
    //   m = 2: before = C[1] = 0.25, after = C[min(7, 7)] = C[7] = 0.75
    //          IE = (0.75 − 0.25) / (1 − 0.25) = 0.5 / 0.75 = 2/3
    //   m = 5: before = C[4] = 1, after = C[min(10, 7)] = C[7] = 0.75 (horizon cut short)
    //          before = 1 → IE = 0.75 − 1 = −0.25
    //   run IE = (2/3 − 1/4) / 2 = 5/24
    const result = interventionEffectiveness(C, [2, 5]);
    expect(result.perIntervention).toEqual([
      { m: 2, before: 0.25, afterTurn: 7, after: 0.75, normalized: true, ie: expect.closeTo(2 / 3, 12) },
      { m: 5, before: 1, afterTurn: 7, after: 0.75, normalized: false, ie: -0.25 },
    ]);
    expect(result.ie).toBeCloseTo(5 / 24, 12);
    expect(result).toMatchObject({ interventions: 2, truncatedHorizon: 1, horizon: 5 });
  });

  it("is negative when consensus falls after the intervention", () => {
    // h = 2, m = 2: before = C[1] = 0.5, after = C[4] = 0.25 → (0.25 − 0.5) / 0.5 = −0.5
    const result = interventionEffectiveness([0.5, 0.5, 0.5, 0.5, 0.25], [2], { horizon: 2 });
    expect(result.ie).toBe(-0.5);
    expect(result.truncatedHorizon).toBe(0);
  });
});

describe("run without mediator turns", () => {
  // T = 12. Drops at t = 2 (0.5 → 0.25) and t = 10 (0.5 → 0.25).
  const C = [0.5, 0.5, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.25, 0.5, 0.25, 0.25, 0.25];

  it("has no IE and no FI, with counts", () => {
    expect(interventionEffectiveness(C, [])).toMatchObject({ ie: null, reason: "no interventions", interventions: 0 });
    expect(firstIntervention([], 12)).toEqual({
      fi: null,
      reason: "no interventions",
      firstTurn: null,
      lastTurn: 12,
      interventions: 0,
    });
    expect(interventionFrequency(0, 8)).toEqual({ frequency: 0, mediatorTurns: 0, partyTurns: 8 });
  });

  it("gets IT = 0 from events whose window was fully observed (spec as written), else no IT", () => {
    // W = 4: t = 2 → 2 + 4 ≤ 12 → 0; t = 10 → 14 > 12 → censored. IT = 0 over 1 event.
    expect(interventionTimeliness(C, [], { window: 4 })).toMatchObject({ it: 0, counted: 1, censored: 1 });
    // Default W = 10: t = 2 → 12 ≤ 12 → 0 still counts; t = 10 censored.
    expect(interventionTimeliness(C, [])).toMatchObject({ it: 0, counted: 1, censored: 1 });
    // T = 3, only drop at t = 3 → 3 + 10 > 3 → censored: no IT at all.
    expect(interventionTimeliness([0.5, 0.5, 0.5, 0.25], [])).toMatchObject({
      it: null,
      reason: "all drop events censored",
      counted: 0,
      censored: 1,
    });
  });
});

describe("consensusGain", () => {
  it("is the share of the unmediated gap that the mediated run closed", () => {
    // (0.75 − 0.5) / (1 − 0.5) = 0.5
    expect(consensusGain(0.5, 0.75)).toEqual({ cg: 0.5, unmediated: 0.5, mediated: 0.75, normalized: true });
    // (1 − 0.75) / (1 − 0.75) = 1: gap fully closed
    expect(consensusGain(0.75, 1).cg).toBe(1);
  });

  it("is negative when the mediated run ends worse", () => {
    // (0.25 − 0.5) / 0.5 = −0.5
    expect(consensusGain(0.5, 0.25).cg).toBe(-0.5);
  });

  it("reports the raw change when U = 1", () => {
    // U = 1 → M − U = 0.75 − 1 = −0.25
    expect(consensusGain(1, 0.75)).toEqual({ cg: -0.25, unmediated: 1, mediated: 0.75, normalized: false });
    expect(consensusGain(1, 1).cg).toBe(0);
  });
});

describe("interventionFrequency and firstIntervention", () => {
  it("divides mediator turns by party turns", () => {
    // 3 / 12 = 0.25
    expect(interventionFrequency(3, 12).frequency).toBe(0.25);
    expect(interventionFrequency(0, 0)).toMatchObject({ frequency: null, reason: "no party turns" });
  });

  it("places the first mediator turn relative to T", () => {
    // first mediator turn 4, T = 12 → 4/12 = 1/3
    expect(firstIntervention([4, 9], 12)).toEqual({ fi: 4 / 12, firstTurn: 4, lastTurn: 12, interventions: 2 });
  });
});

describe("timingProfile", () => {
  it("bins p = m/T into [0, .2), [.2, .4), …, [.8, 1] and averages IE per bin", () => {
    // p = 0.1 → bin 0; p = 0.2 (edge) → bin 1; p = 0.3 → bin 1; p = 0.8 (edge) → bin 4; p = 1 → bin 4.
    //   bin 0: [0.5]        → 0.5
    //   bin 1: [0.1, 0.3]   → 0.2
    //   bins 2, 3: empty    → null
    //   bin 4: [0.4, −0.2]  → 0.1
    const result = timingProfile([
      { progress: 0.1, ie: 0.5 },
      { progress: 0.2, ie: 0.1 },
      { progress: 0.3, ie: 0.3 },
      { progress: 0.8, ie: 0.4 },
      { progress: 1, ie: -0.2 },
    ]);
    expect(result.binCount).toBe(5);
    expect(result.interventions).toBe(5);
    expect(result.bins.map((b) => b.count)).toEqual([1, 2, 0, 0, 2]);
    expect(result.bins.map((b) => b.meanIe)).toEqual([
      0.5,
      expect.closeTo(0.2, 12),
      null,
      null,
      expect.closeTo(0.1, 12),
    ]);
    expect(result.bins[1]).toMatchObject({ lower: 0.2, upper: 0.4 });
  });

  it("puts ratios that equal an edge into the upper bin", () => {
    expect(timingBinIndex(3 / 15, 5)).toBe(1);
    expect(timingBinIndex(0.19999, 5)).toBe(0);
    expect(timingBinIndex(3 / 5, 5)).toBe(3);
    expect(timingBinIndex(29 / 30, 5)).toBe(4);
    expect(timingBinIndex(1, 5)).toBe(4);
  });

  it("rejects progress outside (0, 1]", () => {
    expect(() => timingBinIndex(0, 5)).toThrow(RangeError);
    expect(() => timingBinIndex(1.01, 5)).toThrow(RangeError);
  });
});

describe("aggregateCell", () => {
  it("averages the runs that have a value and reports ×100 with counts", () => {
    // (0.5 + 0.25) / 2 = 0.375 → 37.5
    expect(aggregateCell([0.5, null, 0.25, null])).toEqual({ mean: 0.375, percent: 37.5, used: 2, skipped: 2 });
  });

  it("has no value for an empty cell", () => {
    expect(aggregateCell([])).toEqual({ mean: null, percent: null, used: 0, skipped: 0 });
    expect(aggregateCell([null])).toEqual({ mean: null, percent: null, used: 0, skipped: 1 });
  });

  it("refuses NaN (no value must come as null)", () => {
    expect(() => aggregateCell([Number.NaN])).toThrow(RangeError);
  });
});

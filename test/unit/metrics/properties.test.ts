// Property tests for invariants that hold for every input.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { consensusGain } from "../../../app/domain/metrics/consensus-gain.ts";
import { interventionEffectiveness } from "../../../app/domain/metrics/intervention-effectiveness.ts";
import { interventionTimeliness } from "../../../app/domain/metrics/intervention-timeliness.ts";
import { leastSquaresSlope } from "../../../app/domain/metrics/least-squares-slope.ts";
import { timingBinIndex } from "../../../app/domain/metrics/timing-profile.ts";
import { consensusChange } from "../../../app/domain/metrics/consensus-change.ts";
import { responseLatency } from "../../../app/domain/metrics/response-latency.ts";

/** A consensus series on the quarter-step grid (means of 1..5 scores remapped), plus sorted mediator turns. */
const runArbitrary = fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 2, maxLength: 40 }).chain((steps) =>
  fc.record({
    series: fc.constant(steps.map((s) => s / 4)),
    mediatorTurns: fc.subarray(Array.from({ length: steps.length - 1 }, (_, i) => i + 1)),
  }),
);

const unit = fc.double({ min: 0, max: 1, noNaN: true });

describe("metric invariants", () => {
  it("IT lies in [0, 1] (or is null) and every event is counted or censored", () => {
    fc.assert(
      fc.property(runArbitrary, fc.integer({ min: 1, max: 12 }), ({ series, mediatorTurns }, window) => {
        const result = interventionTimeliness(series, mediatorTurns, { window });
        expect(result.counted + result.censored).toBe(result.events.length);
        if (result.it === null) expect(result.counted).toBe(0);
        else {
          expect(result.it).toBeGreaterThanOrEqual(0);
          expect(result.it).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it("IE is 0 for every intervention when consensus is constant", () => {
    fc.assert(
      fc.property(runArbitrary, unit, ({ series, mediatorTurns }, level) => {
        const flat = series.map(() => level);
        const result = interventionEffectiveness(flat, mediatorTurns);
        for (const p of result.perIntervention) expect(p.ie).toBe(0);
        expect(result.ie === null || result.ie === 0).toBe(true);
      }),
    );
  });

  it("CG is 0 when both runs end equal, and at most 1 when consensus stays within [0, 1]", () => {
    fc.assert(
      fc.property(unit, unit, (u, m) => {
        expect(consensusGain(u, u).cg).toBe(0);
        expect(consensusGain(u, m).cg).toBeLessThanOrEqual(1 + 1e-12);
      }),
    );
  });

  it("CC and RL never produce NaN", () => {
    fc.assert(
      fc.property(runArbitrary, ({ series, mediatorTurns }) => {
        const cc = consensusChange(series).cc;
        expect(cc === null || Number.isFinite(cc)).toBe(true);
        const rl = responseLatency(series, mediatorTurns);
        for (const v of [rl.meanLatency, rl.unrespondedShare]) expect(v === null || Number.isFinite(v)).toBe(true);
      }),
    );
  });

  it("the least-squares slope recovers an exact line", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -20, max: 20 }),
        fc.integer({ min: -5, max: 5 }),
        fc.integer({ min: 2, max: 10 }),
        (intercept, slope, n) => {
          const xs = Array.from({ length: n }, (_, i) => i + 1);
          expect(
            leastSquaresSlope(
              xs,
              xs.map((x) => intercept + slope * x),
            ),
          ).toBeCloseTo(slope, 9);
        },
      ),
    );
  });

  it("timing bins of m/T agree with exact integer binning", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 12 }),
        fc.nat(),
        (lastTurn, bins, seed) => {
          const m = (seed % lastTurn) + 1;
          expect(timingBinIndex(m / lastTurn, bins)).toBe(Math.min(bins - 1, Math.floor((m * bins) / lastTurn)));
        },
      ),
    );
  });
});

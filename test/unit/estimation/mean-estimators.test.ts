/**
 * Edge cases of the mean estimators (values against ppi_py are in ppi-reference.test.ts): too few
 * labels, bad input, a judge with one value for every run, and the stopping rule's projection.
 */
import { describe, expect, it } from "vitest";
import {
  activeMean,
  classicalMean,
  labelsToHalfWidth,
  labelsToReport,
  MIN_LABELS_FOR_INTERVAL,
  type MeanEstimate,
  ppiMean,
} from "../../../app/domain/estimation/mean-estimators.ts";

const ys = [0.2, 0.5, 0.9, 0.4, 0.7, 0.3, 0.8, 0.6];

describe("too little to estimate", () => {
  it("is null below two labels, and PPI++ without an unlabelled run", () => {
    expect(classicalMean([0.5])).toBeNull();
    expect(ppiMean({ y: [0.5], fLabelled: [0.4], fUnlabelled: [0.3, 0.2] })).toBeNull();
    expect(ppiMean({ y: [0.5, 0.6], fLabelled: [0.4, 0.5], fUnlabelled: [] })).toBeNull();
    expect(
      activeMean([
        { f: 0.3, pi: 0.5, y: 0.4 },
        { f: 0.3, pi: 0.5, y: null },
      ]),
    ).toBeNull();
  });
});

describe("bad input names the value", () => {
  it("refuses non-finite values, mismatched lengths, probabilities outside (0, 1] and alpha outside (0, 1)", () => {
    expect(() => classicalMean([0.1, Number.NaN])).toThrow(/y\[1\] is not a finite number/);
    expect(() => classicalMean(ys, 1)).toThrow(/alpha must be in \(0, 1\)/);
    expect(() => ppiMean({ y: ys, fLabelled: ys.slice(1), fUnlabelled: [0.2] })).toThrow(
      /fLabelled has 7 values for 8/,
    );
    expect(() => ppiMean({ y: ys, fLabelled: ys, fUnlabelled: [0.2, Number.POSITIVE_INFINITY] })).toThrow(
      /fUnlabelled\[1\]/,
    );
    expect(() => activeMean([{ f: 0.3, pi: 0, y: 0.4 }])).toThrow(/units\[0\]\.pi must be in \(0, 1\]/);
    expect(() => activeMean([{ f: Number.NaN, pi: 0.5, y: 0.4 }])).toThrow(/units\[0\]\.f/);
  });
});

describe("activeMean with a judge that gives every run one value", () => {
  it("gives the same estimate whatever that value (the judge carries no information), with lambda 0", () => {
    const at = (k: number) =>
      activeMean(Array.from({ length: 40 }, (_, i) => ({ f: k, pi: i < 8 ? 0.2 + 0.05 * i : 0.25, y: ys[i] ?? null })));
    const zero = at(0) as MeanEstimate;
    for (const k of [0.3, 0.7, 0.123456789]) {
      const got = at(k) as MeanEstimate;
      expect(got.lambda).toBe(0);
      expect(got.estimate).toBeCloseTo(zero.estimate, 12);
      expect(got.se).toBeCloseTo(zero.se, 12);
    }
  });

  it("is the plain mean when every run is labelled with certainty", () => {
    const got = activeMean(ys.map((y, i) => ({ f: i / 10, pi: 1, y }))) as MeanEstimate;
    expect(got.estimate).toBeCloseTo(ys.reduce((s, v) => s + v, 0) / ys.length, 15);
  });
});

describe("labelsToHalfWidth", () => {
  const at = (labelled: number, halfWidth: number) => ({ ...(classicalMean(ys) as MeanEstimate), labelled, halfWidth });

  it("projects the further labels under 1/√labels shrinkage, 0 once there", () => {
    // 40 labels at ±0.08: 40 · (0.08 / 0.05)² = 102.4 → 103 in all, 63 more.
    expect(labelsToHalfWidth(at(40, 0.08), 0.05)).toBe(63);
    expect(labelsToHalfWidth(at(40, 0.05), 0.05)).toBe(0);
    expect(labelsToHalfWidth(at(40, 0.01), 0.05)).toBe(0);
  });

  it("refuses a target that is not positive", () => {
    expect(() => labelsToHalfWidth(at(40, 0.08), 0)).toThrow(/target half-width must be positive/);
  });

  it("asks, as labelsToReport, for at least the labels an interval needs before it is read as final", () => {
    expect(MIN_LABELS_FOR_INTERVAL).toBe(30);
    // 10 labels at ±0.06: the projection wants 15 in all (5 more), the floor 20 more.
    expect(labelsToHalfWidth(at(10, 0.06), 0.05)).toBe(5);
    expect(labelsToReport(at(10, 0.06), 0.05)).toBe(20);
    // Already narrow at 12 labels: still 18 to go.
    expect(labelsToReport(at(12, 0.01), 0.05)).toBe(18);
    // Past the floor, the projection alone.
    expect(labelsToReport(at(40, 0.08), 0.05)).toBe(63);
    expect(labelsToReport(at(40, 0.05), 0.05)).toBe(0);
  });
});

/**
 * The mean estimators against an independent implementation on fixed fixtures
 * (test/fixtures/ppi/cases.json, written by compute_expected.py): classical and PPI++ values from
 * the authors' ppi_py package, active values from a direct numpy implementation of the sequential
 * Poisson design and the calibrated inverse-probability-weighted estimator.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  activeMean,
  classicalMean,
  type MeanEstimate,
  ppiMean,
  tunedLambda,
} from "../../../app/domain/estimation/mean-estimators.ts";
import { drawOrder, inclusionProbabilities } from "../../../app/domain/estimation/order-sampling.ts";

interface Interval {
  estimate: number;
  lower: number;
  upper: number;
  halfWidth: number;
  se: number;
}
interface PpiCase {
  name: string;
  alpha: number;
  y: number[];
  fLabelled: number[];
  fUnlabelled: number[];
  expected: {
    classical: Interval;
    tuned: Interval & { lambda: number; pointEstimate: number };
    fixed: (Interval & { lambda: number; pointEstimate: number })[];
  };
}
interface ActiveCase {
  name: string;
  seed: number;
  share: number;
  units: { id: string; f: number; uncertainty: number; y: number }[];
  expected: {
    labelled: number;
    order: string[];
    pi: number[];
    lambda: number;
    estimate: number;
    se: number;
    lower: number;
    upper: number;
  }[];
}

const cases = JSON.parse(readFileSync(new URL("../../fixtures/ppi/cases.json", import.meta.url), "utf8")) as {
  ppi: PpiCase[];
  active: ActiveCase[];
};

const TOLERANCE = 1e-9;

function expectClose(actual: number, expected: number, what: string): void {
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(TOLERANCE);
}

function expectInterval(actual: MeanEstimate | null, expected: Interval, what: string): MeanEstimate {
  expect(actual, what).not.toBeNull();
  const a = actual as MeanEstimate;
  for (const key of ["estimate", "lower", "upper", "halfWidth", "se"] as const) {
    expectClose(a[key], expected[key], `${what} ${key}`);
  }
  return a;
}

describe("classical and PPI++ means against ppi_py", () => {
  it("covers judges of every kind, including both clipped lambdas", () => {
    const lambdas = cases.ppi.map((c) => c.expected.tuned.lambda);
    expect(cases.ppi.length).toBeGreaterThanOrEqual(6);
    expect(lambdas).toContain(0);
    expect(lambdas).toContain(1);
    expect(lambdas.some((l) => l > 0.05 && l < 0.95)).toBe(true);
  });

  for (const c of cases.ppi) {
    it(`${c.name}: n = ${c.y.length}, N = ${c.fUnlabelled.length}, alpha ${c.alpha}`, () => {
      const classical = expectInterval(classicalMean(c.y, c.alpha), c.expected.classical, "classical");
      expect(classical.labelled).toBe(c.y.length);
      expect(classical.lambda).toBe(0);

      expectClose(tunedLambda(c.y, c.fLabelled, c.fUnlabelled), c.expected.tuned.lambda, "tuned lambda");
      const tuned = expectInterval(
        ppiMean({ y: c.y, fLabelled: c.fLabelled, fUnlabelled: c.fUnlabelled, alpha: c.alpha }),
        c.expected.tuned,
        "PPI++ tuned",
      );
      expectClose(tuned.lambda, c.expected.tuned.lambda, "PPI++ lambda");
      expectClose(tuned.estimate, c.expected.tuned.pointEstimate, "PPI++ point estimate");
      expect(tuned.units).toBe(c.y.length + c.fUnlabelled.length);

      for (const fixed of c.expected.fixed) {
        const what = `PPI lambda = ${fixed.lambda}`;
        const got = expectInterval(
          ppiMean({ y: c.y, fLabelled: c.fLabelled, fUnlabelled: c.fUnlabelled, alpha: c.alpha, lambda: fixed.lambda }),
          fixed,
          what,
        );
        expect(got.lambda).toBe(fixed.lambda);
        expectClose(got.estimate, fixed.pointEstimate, `${what} point estimate`);
      }
    });
  }

  it("lambda = 0 is the classical estimate and interval", () => {
    const c = cases.ppi[0];
    const zero = ppiMean({ y: c.y, fLabelled: c.fLabelled, fUnlabelled: c.fUnlabelled, lambda: 0 });
    const classical = classicalMean(c.y);
    expect(zero?.estimate).toBeCloseTo(classical?.estimate as number, 12);
    expect(zero?.halfWidth).toBeCloseTo(classical?.halfWidth as number, 12);
  });
});

describe("active labelling: sequential Poisson order and the calibrated IPW mean against numpy", () => {
  for (const c of cases.active) {
    for (const e of c.expected) {
      it(`${c.name}, ${e.labelled} of ${c.units.length} labelled (share ${c.share})`, () => {
        const byId = new Map(c.units.map((u) => [u.id, u]));
        const order = drawOrder(c.units, c.seed, c.share);
        expect(order.map((u) => u.id)).toEqual(e.order);
        const pi = inclusionProbabilities(order, e.labelled);
        pi.forEach((p, i) => expectClose(p, e.pi[i], `pi of ${order[i].id}`));
        // Every unit drawn so far has pi = 1 or is below it; the certain ones are all among them.
        pi.forEach((p, i) => {
          if (p === 1) expect(i).toBeLessThan(e.labelled);
        });
        const units = order.map((u, i) => {
          const unit = byId.get(u.id) as ActiveCase["units"][number];
          return { f: unit.f, pi: pi[i], y: i < e.labelled ? unit.y : null };
        });
        const got = activeMean(units);
        expect(got).not.toBeNull();
        const a = got as MeanEstimate;
        for (const key of ["lambda", "estimate", "se", "lower", "upper"] as const) expectClose(a[key], e[key], key);
        expect(a.labelled).toBe(e.labelled);
        expect(a.units).toBe(c.units.length);
      });
    }
  }
});

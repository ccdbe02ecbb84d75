import { describe, it } from "vitest";
import fc from "fast-check";
import {
  krippendorffAlpha,
  REASON_NO_VARIATION,
  type AlphaLevel,
  type RatingValue,
} from "../../../app/domain/stats/index.ts";
import { LEVELS, naiveAlpha } from "./helpers.ts";

const level = fc.constantFrom<AlphaLevel>(...LEVELS);

/** Rating matrices: 2–5 raters × 1–25 units, values 0–6 (0 exercises the ratio edge), ~25% missing. */
const matrix = fc
  .record({ raters: fc.integer({ min: 2, max: 5 }), units: fc.integer({ min: 1, max: 25 }) })
  .chain(({ raters, units }) =>
    fc.array(
      fc.array(
        fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 0, max: 6 }) }, { weight: 1, arbitrary: fc.constant(null) }),
        {
          minLength: units,
          maxLength: units,
        },
      ),
      { minLength: raters, maxLength: raters },
    ),
  );

function sameAlpha(a: number | null, b: number | null): boolean {
  if (a === null || b === null) return a === b;
  return Math.abs(a - b) <= 1e-12;
}

function permutation(n: number) {
  return fc.shuffledSubarray(
    Array.from({ length: n }, (_, i) => i),
    { minLength: n, maxLength: n },
  );
}

describe("krippendorffAlpha properties", () => {
  it("is invariant under permuting units", () => {
    fc.assert(
      fc.property(
        matrix.chain((m) => fc.tuple(fc.constant(m), permutation(m[0].length))),
        level,
        ([m, perm], lvl) => {
          const shuffled = m.map((row) => perm.map((u) => row[u]));
          return sameAlpha(krippendorffAlpha(m, lvl).alpha, krippendorffAlpha(shuffled, lvl).alpha);
        },
      ),
    );
  });

  it("is invariant under permuting raters", () => {
    fc.assert(
      fc.property(
        matrix.chain((m) => fc.tuple(fc.constant(m), permutation(m.length))),
        level,
        ([m, perm], lvl) =>
          sameAlpha(
            krippendorffAlpha(m, lvl).alpha,
            krippendorffAlpha(
              perm.map((r) => m[r]),
              lvl,
            ).alpha,
          ),
      ),
    );
  });

  it("is 1 under perfect agreement with at least two distinct values", () => {
    const agreeing = fc
      .record({
        truth: fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 2, maxLength: 20 }),
        raters: fc.integer({ min: 2, max: 4 }),
        seedMask: fc.array(fc.boolean(), { minLength: 80, maxLength: 80 }),
      })
      .map(({ truth, raters, seedMask }) =>
        Array.from({ length: raters }, (_, r) =>
          truth.map((v, u) => (r < 2 || seedMask[(r * 20 + u) % 80] ? v : null)),
        ),
      );
    fc.assert(
      fc.property(agreeing, level, (m, lvl) => {
        fc.pre(new Set(m[0]).size >= 2);
        return krippendorffAlpha(m, lvl).alpha === 1;
      }),
    );
  });

  it("is at most 1 and never NaN", () => {
    fc.assert(
      fc.property(matrix, level, (m, lvl) => {
        const res = krippendorffAlpha(m, lvl);
        if (res.alpha === null) return typeof res.reason === "string" && res.reason.length > 0;
        return Number.isFinite(res.alpha) && res.alpha <= 1 + 1e-12;
      }),
    );
  });

  it("ignores a unit rated by a single rater", () => {
    fc.assert(
      fc.property(matrix, level, fc.integer({ min: 0, max: 9 }), fc.nat(), (m, lvl, value, who) => {
        const rater = who % m.length;
        const extended: RatingValue[][] = m.map((row, r) => [...row, r === rater ? value : null]);
        const a = krippendorffAlpha(m, lvl);
        const b = krippendorffAlpha(extended, lvl);
        return sameAlpha(a.alpha, b.alpha) && a.units === b.units && a.pairableValues === b.pairableValues;
      }),
    );
  });

  it("is null with a reason (not NaN) when all pairable values are equal", () => {
    fc.assert(
      fc.property(matrix, level, fc.integer({ min: 0, max: 6 }), (m, lvl, v) => {
        const constant = m.map((row) => row.map((x) => (x === null ? null : v)));
        const res = krippendorffAlpha(constant, lvl);
        return res.units === 0 ? res.alpha === null : res.alpha === null && res.reason === REASON_NO_VARIATION;
      }),
    );
  });

  it("equals the pairwise definition on random data", () => {
    fc.assert(
      fc.property(matrix, level, (m, lvl) => {
        const a = krippendorffAlpha(m, lvl).alpha;
        const b = naiveAlpha(m, lvl);
        if (a === null || b === null) return a === b;
        return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
      }),
    );
  });
});

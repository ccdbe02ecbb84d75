import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { alpha as npmAlpha } from "krippendorff";
import {
  krippendorffAlpha,
  REASON_NO_PAIRABLE,
  REASON_NO_VARIATION,
  StatsInputError,
  type AlphaLevel,
  type RatingValue,
} from "../../../app/domain/stats/index.ts";
import { LEVELS, naiveAlpha, randomRatings } from "./helpers.ts";

interface RefAlpha {
  alpha: number | null;
  units: number;
  pairable_values: number;
  observed: number | null;
  expected: number | null;
}
interface RefCase {
  name: string;
  data: RatingValue[][];
  expected: Partial<Record<AlphaLevel, RefAlpha>>;
}
const reference = JSON.parse(
  readFileSync(new URL("../../fixtures/stats/krippendorff-reference.json", import.meta.url), "utf8"),
) as { cases: RefCase[] };

function close(actual: number | null, expected: number | null, tol: number): void {
  expect(actual === null).toBe(expected === null);
  if (actual !== null && expected !== null)
    expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(expected)));
}

const _ = null;
// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability": observers A–D × units 1–12.
const PAPER: RatingValue[][] = [
  [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
  [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
  [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
  [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
];

describe("krippendorffAlpha: Krippendorff (2011) reliability-data example", () => {
  const published: Record<AlphaLevel, number> = { nominal: 0.743, ordinal: 0.815, interval: 0.849, ratio: 0.797 };
  for (const level of LEVELS) {
    it(`${level} matches the published ${published[level]}`, () => {
      const res = krippendorffAlpha(PAPER, level);
      expect(Math.abs(res.alpha! - published[level])).toBeLessThanOrEqual(5e-4);
      expect(res.units).toBe(11); // unit 12 has a single rating
      expect(res.pairableValues).toBe(40);
    });
  }
  it("the fixture holds the same matrix", () => {
    expect(reference.cases.find((c) => c.name === "krippendorff-2011")!.data).toEqual(PAPER);
  });
});

describe("krippendorffAlpha: independent Python pairwise reference (1e-9)", () => {
  for (const c of reference.cases) {
    for (const [level, exp] of Object.entries(c.expected) as [AlphaLevel, RefAlpha][]) {
      it(`${c.name} / ${level}`, () => {
        const res = krippendorffAlpha(c.data, level);
        close(res.alpha, exp.alpha, 1e-9);
        close(res.observedDisagreement, exp.observed, 1e-9);
        close(res.expectedDisagreement, exp.expected, 1e-9);
        expect(res.units).toBe(exp.units);
        expect(res.pairableValues).toBe(exp.pairable_values);
        expect(res.level).toBe(level);
      });
    }
  }
});

describe("krippendorffAlpha: cross-check with the krippendorff npm package", () => {
  // The package treats null as a category: pass undefined for missing values.
  const toPkg = (data: RatingValue[][]) => data.map((row) => row.map((v) => (v === null ? undefined : (v as number))));
  const squared = (a: number, b: number) => (a - b) ** 2;
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const raters = 2 + (seed % 3);
    const data = randomRatings(seed, raters, 40, [1, 2, 3, 4, 5, 6], { agree: 0.5, missing: 0.2 });
    it(`seed ${seed}, ${raters} raters: nominal and interval`, () => {
      close(krippendorffAlpha(data, "nominal").alpha, npmAlpha(toPkg(data)), 1e-9);
      close(krippendorffAlpha(data, "interval").alpha, npmAlpha(toPkg(data), squared), 1e-9);
    });
  }
});

describe("krippendorffAlpha: many distinct values (sparse coincidence storage)", () => {
  it("agrees with the pairwise definition when V > 1024", () => {
    const values = Array.from({ length: 3000 }, (_, i) => 1 + i / 7);
    const data = randomRatings(99, 3, 700, values, { agree: 0.5, missing: 0.1 });
    const distinct = new Set(data.flat().filter((v) => v !== null));
    expect(distinct.size).toBeGreaterThan(1024);
    for (const level of LEVELS) close(krippendorffAlpha(data, level).alpha, naiveAlpha(data, level), 1e-9);
  });
  it("ratio with many distinct values and zeros agrees with the pairwise definition (1e-12)", () => {
    const values = Array.from({ length: 2000 }, (_, i) => i / 5); // 0 included
    const data = randomRatings(98, 3, 600, values, { agree: 0.4, missing: 0.1 });
    for (let u = 0; u < 40; u++) data[u % 3][u] = 0;
    expect(data.flat().filter((v) => v === 0).length).toBeGreaterThan(20);
    close(krippendorffAlpha(data, "ratio").alpha, naiveAlpha(data, "ratio"), 1e-12);
  });
  it("a value seen only in a lone rating does not disturb the result", () => {
    const data: RatingValue[][] = [
      [1, 2, 3, ...Array.from({ length: 40 }, (_, i) => i + 10)],
      [1, 3, 3, ...Array.from({ length: 40 }, () => null)],
    ];
    for (const level of LEVELS) close(krippendorffAlpha(data, level).alpha, naiveAlpha(data, level), 1e-12);
  });
});

describe("krippendorffAlpha: undefined alpha is null with a reason", () => {
  it("no pairable values", () => {
    for (const data of [
      [],
      [[1, 2, 3]],
      [
        [1, null],
        [null, 2],
      ],
      [[], []],
    ] as RatingValue[][][]) {
      const res = krippendorffAlpha(data, "interval");
      expect(res).toMatchObject({ alpha: null, reason: REASON_NO_PAIRABLE, units: 0, pairableValues: 0 });
      expect(res.observedDisagreement).toBeNull();
    }
  });
  it("all pairable values equal", () => {
    for (const level of LEVELS) {
      const res = krippendorffAlpha(
        [
          [4, 4, 4, 9],
          [4, 4, 4, null],
        ],
        level,
      );
      expect(res).toMatchObject({ alpha: null, reason: REASON_NO_VARIATION, units: 3, pairableValues: 6 });
    }
  });
  it("ratio with zeros is defined (0 vs 0 is no difference)", () => {
    const res = krippendorffAlpha(
      [
        [0, 0, 2, 3],
        [0, 1, 2, 3],
      ],
      "ratio",
    );
    close(
      res.alpha,
      naiveAlpha(
        [
          [0, 0, 2, 3],
          [0, 1, 2, 3],
        ],
        "ratio",
      ),
      1e-12,
    );
  });
  it("undefined is accepted as missing, like null", () => {
    const withUndefined: RatingValue[][] = [
      [1, 2, undefined, 3],
      [1, 3, 2, undefined],
    ];
    const withNull: RatingValue[][] = [
      [1, 2, null, 3],
      [1, 3, 2, null],
    ];
    expect(krippendorffAlpha(withUndefined, "ordinal")).toEqual(krippendorffAlpha(withNull, "ordinal"));
  });
});

describe("krippendorffAlpha: input validation", () => {
  const expectError = (fn: () => unknown, pattern: RegExp) => {
    expect(fn).toThrow(StatsInputError);
    expect(fn).toThrow(pattern);
  };
  it("rejects rows of unequal length, naming the row", () => {
    expectError(
      () =>
        krippendorffAlpha(
          [
            [1, 2, 3],
            [1, 2, 3],
            [1, 2],
          ],
          "nominal",
        ),
      /rater row 2 has 2 values but row 0 has 3/,
    );
  });
  it("rejects NaN and Infinity, naming rater and unit", () => {
    expectError(
      () =>
        krippendorffAlpha(
          [
            [1, 2, 3],
            [1, NaN, 3],
          ],
          "interval",
        ),
      /rater 1, unit 1: value NaN is not a finite number/,
    );
    expectError(
      () =>
        krippendorffAlpha(
          [
            [1, 2, -Infinity],
            [1, 2, 3],
          ],
          "nominal",
        ),
      /rater 0, unit 2: value -Infinity/,
    );
  });
  it("rejects strings except at the nominal level", () => {
    expect(
      krippendorffAlpha(
        [
          ["a", "b"],
          ["a", "c"],
        ],
        "nominal",
      ).alpha,
    ).not.toBeNull();
    for (const level of ["ordinal", "interval", "ratio"] as const) {
      expectError(
        () =>
          krippendorffAlpha(
            [
              ["a", "b"],
              ["a", "c"],
            ],
            level,
          ),
        new RegExp(`rater 0, unit 0: "a" is a string; the ${level} level needs numbers`),
      );
    }
  });
  it("rejects mixing numbers and strings", () => {
    expectError(
      () =>
        krippendorffAlpha(
          [
            [1, 2],
            ["1", 2],
          ],
          "nominal",
        ),
      /rater 1, unit 0: ratings mix numbers and strings/,
    );
  });
  it("rejects negative values at the ratio level", () => {
    expectError(
      () =>
        krippendorffAlpha(
          [
            [1, 2],
            [1, -2],
          ],
          "ratio",
        ),
      /rater 1, unit 1: ratio level needs values >= 0/,
    );
  });
  it("rejects other value types and unknown levels", () => {
    expectError(
      () => krippendorffAlpha([[1, true as unknown as number]], "nominal"),
      /rater 0, unit 1: expected a number, a string or null, got boolean/,
    );
    expectError(() => krippendorffAlpha([[1, 2]], "cardinal" as AlphaLevel), /unknown level "cardinal"/);
    expectError(
      () => krippendorffAlpha([[1, 2], 3 as unknown as RatingValue[]], "nominal"),
      /rater row 1 is not an array/,
    );
  });
});

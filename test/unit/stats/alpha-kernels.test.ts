/**
 * The alpha kernels of issue 35 (alpha-units.ts, ratio-low-rank.ts and their use in
 * krippendorffAlpha / bootstrapAlphaSamples) against the previous coincidence-matrix code
 * (previous-alpha.ts) and the krippendorff npm package, to 1e-9, on random data at every level:
 * missing values, few and many distinct values (the pair tally, its hand-over to the unit table
 * past 64 values, the low-rank ratio factor past 2,048), one value, all-equal data.
 */
import { describe, expect, it } from "vitest";
import { alpha as npmAlpha } from "krippendorff";
import {
  bootstrapAlphaSamples,
  createRng,
  krippendorffAlpha,
  REASON_NO_VARIATION,
  type AlphaLevel,
  type RatingValue,
} from "../../../app/domain/stats/index.ts";
import { ratioExpectedSum } from "../../../app/domain/stats/ratio-kernel.ts";
import { RatioLowRank } from "../../../app/domain/stats/ratio-low-rank.ts";
import { UniformStream } from "../../../app/domain/stats/rng.ts";
import { LEVELS, naiveAlpha, randomRatings } from "./helpers.ts";
import { previousAlpha } from "./previous-alpha.ts";

function close(actual: number | null, expected: number | null, tol: number, what = ""): void {
  expect(actual === null, `${what} defined`).toBe(expected === null);
  if (actual !== null && expected !== null) {
    expect(Math.abs(actual - expected), what).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(expected)));
  }
}

/** The npm package's metric for a level; ordinal's depends on the pairable values' counts. */
function npmMetric(data: RatingValue[][], level: AlphaLevel): ((a: number, b: number) => number) | undefined {
  if (level === "nominal") return undefined;
  if (level === "interval") return (a, b) => (a - b) ** 2;
  if (level === "ratio") return (a, b) => (a + b === 0 ? 0 : ((a - b) / (a + b)) ** 2);
  const counts = new Map<number, number>();
  for (let u = 0; u < data[0].length; u++) {
    const vals = data.map((row) => row[u]).filter((v): v is number => typeof v === "number");
    if (vals.length >= 2) for (const v of vals) counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  const sorted = [...counts.keys()].sort((a, b) => a - b);
  return (a, b) => {
    if (a === b) return 0;
    const [lo, hi] = a < b ? [a, b] : [b, a];
    let between = 0;
    for (const v of sorted) if (v >= lo && v <= hi) between += counts.get(v)!;
    return (between - (counts.get(lo)! + counts.get(hi)!) / 2) ** 2;
  };
}

// The package takes undefined for a missing rating (null would be a category).
const toPkg = (data: RatingValue[][]) => data.map((row) => row.map((v) => (v === null ? undefined : (v as number))));

describe("alpha kernels agree with the previous implementation and the npm package (1e-9)", () => {
  const shapes = [
    { raters: 2, units: 50, values: 5, missing: 0 },
    { raters: 3, units: 60, values: 8, missing: 0.1 },
    { raters: 4, units: 40, values: 12, missing: 0.3 },
    { raters: 6, units: 30, values: 30, missing: 0.25 },
  ];
  for (const [i, shape] of shapes.entries()) {
    for (const level of LEVELS) {
      it(`${shape.raters} raters x ${shape.units} units, ${shape.values} values, ${shape.missing * 100}% missing: ${level}`, () => {
        for (const seed of [1, 2, 3]) {
          const values = Array.from({ length: shape.values }, (_, k) => k * 1.5); // 0 included (ratio edge)
          const data = randomRatings(100 * i + seed, shape.raters, shape.units, values, {
            agree: 0.5,
            missing: shape.missing,
          });
          const ours = krippendorffAlpha(data, level).alpha;
          close(ours, previousAlpha(data, level), 1e-9, `seed ${seed} previous`);
          close(ours, npmAlpha(toPkg(data), npmMetric(data, level)), 1e-9, `seed ${seed} npm`);
        }
      });
    }
  }

  it("string categories at the nominal level", () => {
    const data = randomRatings(7, 3, 80, ["low", "mid", "high", "n/a"], { agree: 0.6, missing: 0.15 });
    const ours = krippendorffAlpha(data, "nominal").alpha;
    close(ours, previousAlpha(data, "nominal"), 1e-9);
    close(ours, npmAlpha(data.map((row) => row.map((v) => (v === null ? undefined : (v as string))))), 1e-9);
  });

  it("more than 64 values arriving mid-way: the two-rating tally hands over to the unit table", () => {
    // The first 300 units use 10 values, the rest 200: nominal and ordinal switch part-way.
    const early = randomRatings(
      8,
      3,
      300,
      Array.from({ length: 10 }, (_, k) => k + 1),
      { missing: 0.2 },
    );
    const late = randomRatings(
      9,
      3,
      300,
      Array.from({ length: 200 }, (_, k) => k + 1),
      { missing: 0.2 },
    );
    const data = early.map((row, r) => [...row, ...late[r]]);
    for (const level of LEVELS) {
      close(krippendorffAlpha(data, level).alpha, previousAlpha(data, level), 1e-9, level);
      close(krippendorffAlpha(data, level).alpha, naiveAlpha(data, level), 1e-9, `${level} naive`);
    }
  });

  it("non-integer, negative and large values (the small-integer table does not apply)", () => {
    const values = [-3.25, -1, 0, 0.5, 2 ** 31, 1e6 + 0.125, 7, 7.000001];
    const data = randomRatings(10, 3, 120, values, { agree: 0.4, missing: 0.2 });
    for (const level of ["nominal", "ordinal", "interval"] as const) {
      close(krippendorffAlpha(data, level).alpha, previousAlpha(data, level), 1e-9, level);
    }
  });

  it("interval values far from zero: the per-unit merge of means keeps the variance", () => {
    const values = Array.from({ length: 20 }, (_, k) => 1e9 + k * 0.001);
    const data = randomRatings(11, 3, 200, values, { agree: 0.5, missing: 0.1 });
    close(krippendorffAlpha(data, "interval").alpha, previousAlpha(data, "interval"), 1e-9);
  });

  it("many distinct values: interval, ordinal and ratio (low-rank factor) at 3,000 values", () => {
    const values = Array.from({ length: 3000 }, (_, k) => 0.5 + k / 3);
    const data = randomRatings(12, 2, 6000, values, { agree: 0.3 });
    for (const level of ["ordinal", "interval", "ratio"] as const) {
      close(krippendorffAlpha(data, level).alpha, previousAlpha(data, level), 1e-9, level);
    }
  });

  it("one value, and all pairable values equal: null with the same reason as before", () => {
    const cases: RatingValue[][][] = [
      [[5], [5]],
      [
        [2, 2, 2, null],
        [2, 2, null, 9],
        [null, 2, 2, null],
      ],
      [
        ["a", "a", "a"],
        ["a", "a", "a"],
      ],
    ];
    for (const data of cases) {
      for (const level of LEVELS) {
        if (typeof data[0][0] === "string" && level !== "nominal") continue;
        const res = krippendorffAlpha(data, level);
        expect(res, level).toMatchObject({ alpha: null, reason: REASON_NO_VARIATION });
        expect(previousAlpha(data, level)).toBeNull();
      }
    }
  });
});

describe("RatioLowRank", () => {
  it("equals the pair-by-pair expected sum (1e-11) with 2,500 values over four decades", () => {
    const rng = createRng(5);
    const x = Float64Array.from({ length: 2500 }, () => 10 ** (rng() * 4));
    const w = Float64Array.from({ length: 2500 }, () => Math.floor(rng() * 20));
    const factor = RatioLowRank.build(x, 200)!;
    expect(factor.rank).toBeGreaterThan(10);
    expect(factor.rank).toBeLessThan(80);
    const direct = ratioExpectedSum(x, w, x.length);
    expect(Math.abs(factor.expectedSum(w)! - direct)).toBeLessThanOrEqual(1e-11 * direct);
  });

  // expectedSum takes the factor's rows two at a time, an odd last row alone.
  it("equals the pair-by-pair expected sum (1e-11) at odd and even ranks", () => {
    const ranks = new Set<number>();
    for (let span = 1; span <= 8; span++) {
      const rng = createRng(40 + span);
      const x = Float64Array.from({ length: 300 }, () => 10 ** (rng() * span));
      const w = Float64Array.from({ length: 300 }, () => Math.floor(rng() * 9));
      const factor = RatioLowRank.build(x, 100)!;
      ranks.add(factor.rank % 2);
      const direct = ratioExpectedSum(x, w, x.length);
      expect(Math.abs(factor.expectedSum(w)! - direct), `span ${span}`).toBeLessThanOrEqual(1e-11 * direct);
    }
    expect([...ranks].sort()).toEqual([0, 1]);
  });

  it("refuses what it cannot bound: values packed within 1e-6 of each other, too many columns", () => {
    const x = Float64Array.from({ length: 100 }, (_, k) => 1000 + k * 1e-6);
    const w = new Float64Array(100).fill(1);
    const factor = RatioLowRank.build(x, 50);
    expect(factor === null || factor.expectedSum(w) === null).toBe(true);
    const wide = Float64Array.from({ length: 400 }, (_, k) => 2 ** (k / 4));
    expect(RatioLowRank.build(wide, 5)).toBeNull();
  });
});

describe("bootstrap by the same kernels", () => {
  it("draws are identical for the same seed and equal a recomputation on the resampled matrix (1e-9)", () => {
    const values = Array.from({ length: 300 }, (_, k) => 1 + k);
    const data = randomRatings(13, 3, 150, values, { agree: 0.5, missing: 0.2 });
    for (const level of LEVELS) {
      const a = bootstrapAlphaSamples(data, level, { draws: 40, seed: 9 });
      expect(bootstrapAlphaSamples(data, level, { draws: 40, seed: 9 })).toEqual(a);
      const pairable = [...data[0].keys()].filter((u) => data.filter((row) => row[u] !== null).length >= 2);
      const rng = createRng(9);
      for (let d = 0; d < 40; d++) {
        const picks = pairable.map(() => pairable[Math.floor(rng() * pairable.length)]);
        const resampled = data.map((row) => picks.map((u) => row[u]));
        close(a[d], previousAlpha(resampled, level), 1e-9, `${level} draw ${d}`);
      }
    }
  });

  it("a draw of single-valued units of one value is null; of two values, defined", () => {
    const data: RatingValue[][] = [
      [1, 1, 2],
      [1, 1, 2],
    ];
    const draws = bootstrapAlphaSamples(data, "interval", { draws: 200, seed: 3 });
    const nulls = draws.filter((a) => a === null).length;
    // Every unit holds one value; 9 of the 27 equally likely picks of three units hold only one of them.
    expect(nulls).toBeGreaterThan(40);
    expect(nulls).toBeLessThan(110);
    expect(draws.filter((a) => a !== null).every((a) => a === 1)).toBe(true);
  });

  // Interval draws go two at a time (one pass over the units for both), the last alone when the
  // number of draws is odd; nominal and ratio groups of two codes take a path of their own.
  it("bootstrap draws equal recomputation for odd numbers of draws and units of two and three ratings", () => {
    const data = randomRatings(77, 3, 90, [0.5, 1, 2, 3, 5, 8, 13, 21], { agree: 0.4, missing: 0.3 });
    const pairable = [...data[0].keys()].filter((u) => data.filter((row) => row[u] !== null).length >= 2);
    for (const level of LEVELS) {
      for (const draws of [1, 2, 7]) {
        const a = bootstrapAlphaSamples(data, level, { draws, seed: 5 });
        const rng = createRng(5);
        for (let d = 0; d < draws; d++) {
          const picks = pairable.map(() => pairable[Math.floor(rng() * pairable.length)]);
          const resampled = data.map((row) => picks.map((u) => row[u]));
          close(a[d], previousAlpha(resampled, level), 1e-9, `${level}, ${draws} draws, draw ${d}`);
        }
      }
    }
  });

  it("interval: a draw whose partner draw has no variation keeps its own", () => {
    // Unit 0 is the only varied one: draws without it hold only 4s (null); with it, defined.
    const data: RatingValue[][] = [
      [1, 4, 4, 4],
      [9, 4, 4, 4],
    ];
    const draws = bootstrapAlphaSamples(data, "interval", { draws: 41, seed: 12 });
    const rng = createRng(12);
    for (let d = 0; d < 41; d++) {
      const picks = [0, 1, 2, 3].map(() => Math.floor(rng() * 4));
      expect(draws[d] === null, `draw ${d}`).toBe(!picks.includes(0));
    }
    expect(draws.some((a) => a === null)).toBe(true);
    expect(draws.some((a) => a !== null)).toBe(true);
  });

  it("UniformStream.countPicks picks the units createRng's numbers pick", () => {
    const rng = createRng(42);
    const expected = new Int32Array(37);
    for (let i = 0; i < 500; i++) expected[Math.floor(rng() * 37)]++;
    const counts = new Int32Array(37);
    new UniformStream(42).countPicks(counts, 37, 500);
    expect(counts).toEqual(expected);
  });

  // countPicks takes eight picks a loop turn, then the rest one by one: counts of picks around
  // multiples of eight, by unit and by group, and the stream carrying on where a call stopped.
  it("UniformStream.countPicks, by unit and by group, for any number of picks, continues the stream", () => {
    const n = 53;
    const groupOf = Int32Array.from({ length: n }, (_, i) => (i * 7) % 11);
    for (const grouped of [false, true]) {
      const rng = createRng(-17);
      const stream = new UniformStream(-17);
      for (const times of [0, 1, 7, 8, 9, 16, 23, 500]) {
        const expected = new Int32Array(grouped ? 11 : n);
        for (let i = 0; i < times; i++) {
          const unit = Math.floor(rng() * n);
          expected[grouped ? groupOf[unit] : unit]++;
        }
        const counts = new Int32Array(grouped ? 11 : n);
        stream.countPicks(counts, n, times, grouped ? groupOf : null);
        expect(counts, `${grouped ? "groups" : "units"}, ${times} picks`).toEqual(expected);
      }
      expect(stream.next()).toBe(rng());
    }
  });
});

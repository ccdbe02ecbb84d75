/**
 * Timing of the statistics engine against its targets (run: npm run bench:stats).
 * Datasets are generated with the seeded RNG, so every run measures the same input.
 * Each case runs once to warm up, then 5 timed runs; the median is reported.
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import {
  bootstrapAlpha,
  createRng,
  krippendorffAlpha,
  randomInt,
  type RatingValue,
} from "../app/domain/stats/index.ts";

interface Case {
  label: string;
  target: number; // seconds
  run: () => unknown;
  repeats?: number; // timed runs (default 5)
}

/** Raters agree with a unit's "true" value with probability `agree`, otherwise pick at random. */
function ratings(
  seed: number,
  raters: number,
  units: number,
  values: readonly number[],
  agree: number,
  missing: number,
): RatingValue[][] {
  const rng = createRng(seed);
  const truth = Array.from({ length: units }, () => values[randomInt(rng, values.length)]);
  return Array.from({ length: raters }, () =>
    truth.map((t) => {
      if (rng() < missing) return null;
      return rng() < agree ? t : values[randomInt(rng, values.length)];
    }),
  );
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

function time(run: () => unknown, repeats = 5): number {
  run(); // warm-up: JIT and allocation of the dataset-independent structures
  const seconds: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    run();
    seconds.push((performance.now() - t0) / 1000);
  }
  return median(seconds);
}

const ordinalData = ratings(11, 2, 1_000_000, [1, 2, 3, 4, 5], 0.7, 0);
const nominalData = ratings(12, 3, 300_000, [1, 2, 3, 4, 5, 6, 7, 8], 0.7, 0.1);
const intervalValues = Array.from({ length: 40 }, (_, i) => i * 0.25);
const intervalData = ratings(13, 2, 10_000, intervalValues, 0.6, 0);
// Many distinct values: the case where the ratio level's expected disagreement is O(V²).
const manyValues = Array.from({ length: 10_000 }, (_, i) => 1 + i);
const manyData = ratings(14, 2, 1_000_000, manyValues, 0.6, 0);
const ratioBootValues = Array.from({ length: 1_000 }, (_, i) => 1 + i);
const ratioBootData = ratings(15, 2, 100_000, ratioBootValues, 0.6, 0);

const cases: Case[] = [
  {
    label: "(a) alpha ordinal, 2 raters x 1,000,000 units",
    target: 0.2,
    run: () => krippendorffAlpha(ordinalData, "ordinal"),
  },
  {
    label: "(b) alpha nominal, 3 raters x 300,000 units, 10% missing",
    target: 0.06,
    run: () => krippendorffAlpha(nominalData, "nominal"),
  },
  {
    label: "(c) bootstrap 1000 draws, interval, 2 x 10,000, 40 values",
    target: 1,
    run: () => bootstrapAlpha(intervalData, "interval", { draws: 1000, seed: 1 }),
  },
  {
    label: "(d) alpha interval, 2 x 1,000,000 units, 10,000 values",
    target: 1,
    run: () => krippendorffAlpha(manyData, "interval"),
  },
  // Target for (e): within 2x of (d), checked in the printout below.
  {
    label: "(e) alpha ratio, 2 x 1,000,000 units, 10,000 values",
    target: 2,
    run: () => krippendorffAlpha(manyData, "ratio"),
  },
  {
    label: "(f) bootstrap 1000 draws, ratio, 2 x 100,000, 1,000 values",
    target: 5,
    run: () => bootstrapAlpha(ratioBootData, "ratio", { draws: 1000, seed: 1 }),
    repeats: 1,
  },
];

const only = process.env.CASES?.split(",").map((x) => x.trim());
const rows = cases
  .filter((c) => !only || only.some((o) => c.label.startsWith(`(${o})`)))
  .map((c) => {
    const s = time(c.run, c.repeats);
    return { case: c.label, seconds: s.toFixed(4), target: c.target.toFixed(2), ok: s <= c.target ? "yes" : "NO" };
  });

const header = { case: "case", seconds: "median s", target: "target s", ok: "within" };
const widths = Object.keys(header).map((k) =>
  Math.max(...[header, ...rows].map((r) => r[k as keyof typeof header].length)),
);
const line = (r: typeof header) =>
  (Object.keys(header) as (keyof typeof header)[]).map((k, i) => r[k].padEnd(widths[i])).join("  ");
// The load average says whether the figures come from an idle machine (2 cores here: load > 2 inflates them).
const load = loadavg()
  .map((x) => x.toFixed(2))
  .join(" ");
console.log(`node ${process.version}, median of 5 timed runs (1 for (f)) after one warm-up; load average ${load}`);
console.log(line(header));
console.log(widths.map((w) => "-".repeat(w)).join("  "));
for (const r of rows) console.log(line(r));
const secondsOf = (tag: string) => rows.find((r) => r.case.startsWith(`(${tag})`))?.seconds;
const [intervalS, ratioS] = [secondsOf("d"), secondsOf("e")];
if (intervalS && ratioS) {
  const factor = Number(ratioS) / Number(intervalS);
  console.log(
    `ratio / interval at 10,000 values: ${factor.toFixed(2)}x (target: within 2x) ${factor <= 2 ? "yes" : "NO"}`,
  );
}

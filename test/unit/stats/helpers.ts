/** Test helpers: an independent, definition-level Krippendorff's alpha and small data generators. */
import { createRng, randomInt, type AlphaLevel, type RatingValue } from "../../../app/domain/stats/index.ts";

/**
 * Alpha straight from the pairwise definition (no coincidence matrix): observed = mean over
 * pairable values of within-unit pair differences, expected = mean over all pairs of pairable
 * values. O(N²) in the number of pairable values, so only for small data.
 */
export function naiveAlpha(data: RatingValue[][], level: AlphaLevel): number | null {
  const units: (number | string)[][] = [];
  for (let u = 0; u < (data[0]?.length ?? 0); u++) {
    const vals = data.map((row) => row[u]).filter((v): v is number | string => v !== null && v !== undefined);
    if (vals.length >= 2) units.push(vals);
  }
  const pool = units.flat();
  const n = pool.length;
  if (n === 0) return null;
  const counts = new Map<number | string, number>();
  for (const v of pool) counts.set(v, (counts.get(v) ?? 0) + 1);
  // For ordinal: cumulative counts over the sorted distinct values.
  const sorted = [...counts.keys()].sort((a, b) => (a as number) - (b as number));
  const cumBefore = new Map<number | string, number>();
  let acc = 0;
  for (const v of sorted) {
    cumBefore.set(v, acc);
    acc += counts.get(v)!;
  }
  const delta = (c: number | string, k: number | string): number => {
    if (c === k) return 0;
    if (level === "nominal") return 1;
    const a = c as number;
    const b = k as number;
    if (level === "interval") return (a - b) ** 2;
    if (level === "ratio") return ((a - b) / (a + b)) ** 2;
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    const between = cumBefore.get(hi)! + counts.get(hi)! - cumBefore.get(lo)!;
    return (between - (counts.get(lo)! + counts.get(hi)!) / 2) ** 2;
  };
  let observed = 0;
  for (const vals of units) {
    let s = 0;
    for (let i = 0; i < vals.length; i++)
      for (let j = 0; j < vals.length; j++) if (i !== j) s += delta(vals[i], vals[j]);
    observed += s / (vals.length - 1);
  }
  let expected = 0;
  for (let a = 0; a < n; a++) for (let b = 0; b < n; b++) if (a !== b) expected += delta(pool[a], pool[b]);
  if (expected === 0) return null;
  return 1 - ((n - 1) * observed) / expected;
}

/** Seeded random rating matrix: raters copy a unit's true value with probability `agree`. */
export function randomRatings(
  seed: number,
  raters: number,
  units: number,
  values: readonly (number | string)[],
  opts: { agree?: number; missing?: number } = {},
): RatingValue[][] {
  const { agree = 0.6, missing = 0 } = opts;
  const rng = createRng(seed);
  const truth = Array.from({ length: units }, () => values[randomInt(rng, values.length)]);
  return Array.from({ length: raters }, () =>
    truth.map((t) => (rng() < missing ? null : rng() < agree ? t : values[randomInt(rng, values.length)])),
  );
}

export const LEVELS: readonly AlphaLevel[] = ["nominal", "ordinal", "interval", "ratio"];

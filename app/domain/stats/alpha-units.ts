/**
 * The one pass over a rating matrix that Krippendorff's alpha and its bootstrap share. It checks
 * every cell unit by unit (so the first bad cell named is the first in unit order) and reduces
 * each pairable unit (two or more ratings) to what alpha needs from it, with no allocation per
 * unit: fixed scratch buffers and typed arrays sized once.
 *
 * What a unit leaves behind depends on the level:
 *   interval  its count m, mean and M2 = Σ (x − mean)² — no value codes at all: the observed
 *             share is Σ_{i≠j} (x_i − x_j)² / (m − 1) = 2 m M2 / (m − 1), and the expected sum
 *             is 2 n.. Σ (x − x̄)² over the pooled values, merged unit by unit (Chan et al.);
 *   nominal, ratio  value codes → marginals n_c, and its observed share from the pairs inside it;
 *   ordinal   value codes → marginals; its codes are kept, since δ² depends on the marginals,
 *             known only at the end (positions are mid-ranks, see krippendorff.ts).
 * With `keep` (the bootstrap) every level keeps each unit's figures, so a draw re-weights units.
 */
import { StatsInputError } from "./errors.ts";

export type AlphaLevel = "nominal" | "ordinal" | "interval" | "ratio";
export type RatingValue = number | string | null | undefined; // null/undefined = missing

/** Per pairable unit, in column order (only what the level needs is filled). */
export interface UnitTable {
  count: number; // pairable units
  size: Int32Array; // m
  observed: Float64Array | null; // the unit's share of the observed sum (not ordinal)
  start: Int32Array | null; // unit i's codes are codes[start[i] .. start[i + 1]) (coded levels)
  codes: Int32Array | null;
  // interval: the unit's mean (less the first pairable value), M2 and whether its values differ
  mean: Float64Array | null;
  m2: Float64Array | null;
  varied: Float64Array | null; // 1 when the unit holds two different values, else 0
  first: Float64Array | null; // interval: the unit's first value
}

export interface UnitScan {
  level: AlphaLevel;
  units: number;
  nTotal: number;
  observedSum: number; // Σ over units of their observed share (ordinal: 0, summed later)
  varied: boolean; // two or more distinct pairable values
  mean: number; // interval: pooled mean (less the first pairable value) and M2 of the pairable values
  m2: number;
  values: (number | string)[]; // coded levels: the distinct values, by code
  marginals: Float64Array; // coded levels: n_c (length ≥ values.length)
  table: UnitTable | null;
  // Without `keep` (nominal, ordinal): the two-rating units read while V ≤ TALLY_SIDE, counted by
  // their code pair a ≤ b at a · TALLY_SIDE + b (already in the marginals, and for nominal in the
  // observed sum); ordinal keeps its other units in the table for the second pass.
  pairTally: Float64Array | null;
}

export const TALLY_SIDE = 64;

/** Reads every cell of `data` (already shape-checked: `unitCount` columns) for `level`. */
export function scanUnits(data: RatingValue[][], unitCount: number, level: AlphaLevel, keep: boolean): UnitScan {
  const raters = data.length;
  const table = keep ? newTable(level, raters, unitCount) : null;
  if (level === "interval") return scanInterval(data, unitCount, table);
  const tally = !keep && (level === "nominal" || level === "ordinal");
  const pairTally = tally ? new Float64Array(TALLY_SIDE ** 2) : null;
  return scanCoded(data, unitCount, level, table, pairTally);
}

function newTable(level: AlphaLevel, raters: number, unitCount: number): UnitTable {
  const coded = level !== "interval";
  const interval = !coded;
  return {
    count: 0,
    size: new Int32Array(unitCount),
    observed: level === "ordinal" ? null : new Float64Array(unitCount),
    start: coded ? new Int32Array(unitCount + 1) : null,
    codes: coded ? new Int32Array(raters * unitCount) : null,
    mean: interval ? new Float64Array(unitCount) : null,
    m2: interval ? new Float64Array(unitCount) : null,
    varied: interval ? new Float64Array(unitCount) : null,
    first: interval ? new Float64Array(unitCount) : null,
  };
}

function scanInterval(data: RatingValue[][], unitCount: number, table: UnitTable | null): UnitScan {
  const raters = data.length;
  const xs = new Float64Array(raters);
  let units = 0;
  let nTotal = 0;
  let mean = 0;
  let m2 = 0;
  let observedSum = 0;
  let firstValue = 0;
  let varied = false;
  for (let u = 0; u < unitCount; u++) {
    let m = 0;
    for (let r = 0; r < raters; r++) {
      const v = data[r][u];
      if (v === null || v === undefined) continue;
      if (typeof v !== "number" || v - v !== 0) rejectCell(v, "interval", r, u);
      xs[m++] = v as number;
    }
    if (m < 2) continue; // a lone rating has nothing to be compared with
    if (units === 0) firstValue = xs[0];
    else if (!varied && xs[0] !== firstValue) varied = true;
    // Means are taken relative to the first pairable value: values close together (1e9 + 0.001 k)
    // then differ exactly, and a unit mean is not rounded to the values' magnitude.
    let unitMean: number;
    let unitM2 = 0;
    if (m === 2) {
      const d = xs[0] - xs[1];
      unitMean = xs[0] - firstValue - d / 2;
      unitM2 = (d * d) / 2;
    } else {
      let s = 0;
      for (let i = 0; i < m; i++) s += xs[i] - firstValue;
      unitMean = s / m;
      for (let i = 0; i < m; i++) unitM2 += (xs[i] - firstValue - unitMean) ** 2;
    }
    const unitObserved = (2 * m * unitM2) / (m - 1);
    let unitVaried = false;
    for (let i = 1; i < m; i++) if (xs[i] !== xs[0]) unitVaried = true;
    varied ||= unitVaried;
    // Chan et al.'s merge of (nTotal, mean, m2) with the unit's (m, unitMean, unitM2).
    const merged = nTotal + m;
    const d = unitMean - mean;
    const share = m / merged;
    mean += d * share;
    m2 += unitM2 + d * d * nTotal * share;
    nTotal = merged;
    observedSum += unitObserved;
    if (table !== null) {
      const i = table.count++;
      table.size[i] = m;
      table.observed![i] = unitObserved;
      table.mean![i] = unitMean;
      table.m2![i] = unitM2;
      table.varied![i] = unitVaried ? 1 : 0;
      table.first![i] = xs[0];
    }
    units++;
  }
  const values: (number | string)[] = [];
  return {
    level: "interval",
    units,
    nTotal,
    observedSum,
    varied,
    mean,
    m2,
    values,
    marginals: EMPTY,
    table,
    pairTally: null,
  };
}

const EMPTY = new Float64Array(0);

function scanCoded(
  data: RatingValue[][],
  unitCount: number,
  level: AlphaLevel,
  kept: UnitTable | null,
  pairTally: Float64Array | null,
): UnitScan {
  let table = kept;
  const raters = data.length;
  const coder = new ValueCoder(level);
  const codes = new Int32Array(raters);
  const ratio = level === "ratio";
  const xs = new Float64Array(raters);
  let marginals: Float64Array = new Float64Array(16);
  let units = 0;
  let nTotal = 0;
  let observedSum = 0;
  let tallying = pairTally !== null;
  for (let u = 0; u < unitCount; u++) {
    let m = 0;
    for (let r = 0; r < raters; r++) {
      const v = data[r][u];
      if (v === null || v === undefined) continue;
      codes[m] = coder.code(v, r, u);
      if (ratio) xs[m] = v as number;
      m++;
    }
    if (m < 2) continue; // a lone rating has nothing to be compared with
    units++;
    nTotal += m;
    if (tallying && coder.size > TALLY_SIDE) tallying = false;
    if (tallying && m === 2) {
      // No branch on a ≠ b (agreement is common and unpredictable): equal codes land on the diagonal.
      pairTally![Math.min(codes[0], codes[1]) * TALLY_SIDE + Math.max(codes[0], codes[1])] += 1;
      continue;
    }
    if (coder.size > marginals.length) marginals = grown(marginals, coder.size);
    for (let i = 0; i < m; i++) marginals[codes[i]] += 1;
    const unitObserved = level === "nominal" ? nominalShare(codes, m) : ratio ? ratioShare(xs, m) : 0;
    observedSum += unitObserved;
    if (table === null && level === "ordinal") table = newTable(level, raters, unitCount);
    if (table !== null) keepUnit(table, codes, m, unitObserved);
  }
  // Values seen only in lone ratings still get a (zero) marginal.
  if (coder.size > marginals.length) marginals = grown(marginals, coder.size);
  if (pairTally !== null) observedSum += untally(pairTally, marginals, Math.min(coder.size, TALLY_SIDE), level);
  let present = 0;
  for (let c = 0; c < coder.size && present < 2; c++) if (marginals[c] !== 0) present++;
  return {
    level,
    units,
    nTotal,
    observedSum,
    varied: present >= 2,
    mean: 0,
    m2: 0,
    values: coder.values,
    marginals,
    table,
    pairTally,
  };
}

function keepUnit(table: UnitTable, codes: Int32Array, m: number, unitObserved: number): void {
  const i = table.count++;
  table.size[i] = m;
  if (table.observed !== null) table.observed[i] = unitObserved;
  let stored = table.start![i];
  for (let k = 0; k < m; k++) table.codes![stored++] = codes[k];
  table.start![i + 1] = stored;
}

/**
 * Adds the tallied two-rating units to the marginals (each holds one rating of a and one of b)
 * and returns their nominal observed sum (2 per unequal pair; ordinal's waits for the positions).
 */
function untally(tally: Float64Array, marginals: Float64Array, V: number, level: AlphaLevel): number {
  let unequal = 0;
  for (let a = 0; a < V; a++) {
    for (let b = a; b < V; b++) {
      const t = tally[a * TALLY_SIDE + b];
      if (t === 0) continue;
      marginals[a] += t;
      marginals[b] += t;
      if (a !== b) unequal += t;
    }
  }
  return level === "nominal" ? 2 * unequal : 0;
}

function grown(a: Float64Array, size: number): Float64Array {
  let cap = a.length;
  while (cap < size) cap *= 2;
  const b = new Float64Array(cap);
  b.set(a);
  return b;
}

/** Σ over ordered pairs of unequal codes / (m − 1). */
function nominalShare(codes: Int32Array, m: number): number {
  if (m === 2) return codes[0] === codes[1] ? 0 : 2;
  let unequal = 0;
  for (let i = 0; i < m; i++) for (let j = i + 1; j < m; j++) if (codes[i] !== codes[j]) unequal++;
  return (2 * unequal) / (m - 1);
}

/** Σ over ordered pairs of ((x − y) / (x + y))² / (m − 1); 0 vs 0 is no difference. */
function ratioShare(xs: Float64Array, m: number): number {
  let sum = 0;
  for (let i = 0; i < m; i++) {
    for (let j = i + 1; j < m; j++) {
      const s = xs[i] + xs[j];
      if (s !== 0) sum += ((xs[i] - xs[j]) / s) ** 2;
    }
  }
  return (2 * sum) / (m - 1);
}

// Small non-negative integers (the usual rating scales, and integer values up to this bound) are
// coded through a typed-array table instead of a hash lookup.
const SMALL_LIMIT = 1 << 20;

/**
 * Maps rating values to dense codes 0..V−1 in first-seen order. Values are validated only the
 * first time they are seen, so a repeated value costs one table or Map lookup.
 */
export class ValueCoder {
  readonly values: (number | string)[] = [];
  private small = new Int32Array(64); // code + 1 of each small integer seen (0 = not yet)
  private readonly numbers = new Map<number, number>();
  private readonly strings = new Map<string, number>();
  private kind: "number" | "string" | null = null;

  constructor(private readonly level: AlphaLevel) {}

  get size(): number {
    return this.values.length;
  }

  /** Code of a present (non-missing) value; `rater`/`unit` only name the cell in errors. */
  code(v: unknown, rater: number, unit: number): number {
    if (typeof v === "number") {
      const i = v >>> 0;
      if (i === v && i < this.small.length) {
        const c = this.small[i];
        if (c !== 0) return c - 1;
      }
      const c = this.numbers.get(v);
      return c !== undefined ? c : this.addNumber(v, rater, unit);
    }
    if (typeof v === "string") {
      const c = this.strings.get(v);
      return c !== undefined ? c : this.addString(v, rater, unit);
    }
    return rejectCell(v, this.level, rater, unit);
  }

  private addNumber(v: number, rater: number, unit: number): number {
    if (!Number.isFinite(v) || (this.level === "ratio" && v < 0)) rejectCell(v, this.level, rater, unit);
    this.checkKind("number", rater, unit);
    const c = this.values.length;
    this.values.push(v);
    const i = v >>> 0;
    if (i === v && i < SMALL_LIMIT) {
      if (i >= this.small.length) {
        let cap = this.small.length;
        while (cap <= i) cap *= 2;
        const small = new Int32Array(cap);
        small.set(this.small);
        this.small = small;
      }
      this.small[i] = c + 1;
    } else {
      this.numbers.set(v, c);
    }
    return c;
  }

  private addString(v: string, rater: number, unit: number): number {
    if (this.level !== "nominal") rejectCell(v, this.level, rater, unit);
    this.checkKind("string", rater, unit);
    const c = this.values.length;
    this.values.push(v);
    this.strings.set(v, c);
    return c;
  }

  // Mixing 1 and "1" would silently create two categories; refuse instead.
  private checkKind(kind: "number" | "string", rater: number, unit: number): void {
    if (this.kind === null) this.kind = kind;
    else if (this.kind !== kind) {
      throw new StatsInputError(
        `rater ${rater}, unit ${unit}: ratings mix numbers and strings; use one type for all values`,
      );
    }
  }
}

/** Throws the error for a present cell that the level cannot take. */
function rejectCell(v: unknown, level: AlphaLevel, rater: number, unit: number): never {
  const at = `rater ${rater}, unit ${unit}`;
  if (typeof v === "string") {
    throw new StatsInputError(`${at}: "${v}" is a string; the ${level} level needs numbers (strings are nominal only)`);
  }
  if (typeof v !== "number") {
    throw new StatsInputError(`${at}: expected a number, a string or null, got ${v === null ? "null" : typeof v}`);
  }
  if (!Number.isFinite(v)) throw new StatsInputError(`${at}: value ${v} is not a finite number`);
  throw new StatsInputError(`${at}: ratio level needs values >= 0, got ${v}`);
}

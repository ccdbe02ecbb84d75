/**
 * The coincidence-matrix alpha as it was before the kernels of issue 35 (kept as an independent
 * reference for test/unit/stats/alpha-kernels.test.ts): a Map-coded value per cell, a dense or
 * sparse pair tally of the coincidence matrix, δ² per value pair. Only the alpha is compared.
 */
import { StatsInputError } from "../../../app/domain/stats/errors.ts";
import { ratioExpectedSum } from "../../../app/domain/stats/ratio-kernel.ts";
import type { AlphaLevel, RatingValue } from "../../../app/domain/stats/index.ts";

/** Alpha for a rating matrix, or null when undefined (the old krippendorffAlpha(...).alpha). */
export function previousAlpha(data: RatingValue[][], level: AlphaLevel): number | null {
  const unitCount = data[0]?.length ?? 0;
  const coder = new ValueCoder(level);
  const kernel = new MetricKernel(level, coder.values); // coder.values grows as values are seen
  const direct = level !== "ordinal";
  const tally = new PairTally(!direct);
  const codes = new Int32Array(data.length); // reused for every unit
  let nTotal = 0;
  let observedSum = 0;

  for (let u = 0; u < unitCount; u++) {
    const m = readUnit(data, u, coder, codes);
    if (m < 2) continue; // a lone rating has nothing to be compared with
    nTotal += m;
    if (coder.size > tally.capacity) tally.grow(coder.size);
    tally.addUnit(codes, m);
    if (direct) observedSum += kernel.unitObserved(codes, m);
  }

  const V = coder.size;
  if (V > tally.capacity) tally.grow(V); // values seen only in lone ratings still need a (zero) marginal
  const pos = kernel.positions(tally.marginals, V);
  tally.forEachPair((a, b, w) => {
    observedSum += 2 * w * kernel.delta(pos, a, b); // each unordered pair stands for (a,b) and (b,a)
  });
  const expectedSum = kernel.expectedSum(pos, tally.marginals, V, nTotal);
  if (nTotal === 0 || countPresent(tally.marginals, V) < 2 || !(expectedSum > 0)) return null;
  return 1 - ((nTotal - 1) * observedSum) / expectedSum;
}

/** Codes unit u's present ratings into `codes` (reused buffer) and returns how many there are. */
function readUnit(data: RatingValue[][], u: number, coder: ValueCoder, codes: Int32Array): number {
  let m = 0;
  for (let r = 0; r < data.length; r++) {
    const v = data[r][u];
    if (v === null || v === undefined) continue;
    codes[m++] = coder.code(v, r, u);
  }
  return m;
}

/**
 * Maps rating values to dense codes 0..V−1 in first-seen order. Values are validated only the
 * first time they are seen, so the per-value cost is a single Map lookup.
 */
class ValueCoder {
  readonly values: (number | string)[] = [];
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
      const c = this.numbers.get(v);
      return c !== undefined ? c : this.addNumber(v, rater, unit);
    }
    if (typeof v === "string") {
      const c = this.strings.get(v);
      return c !== undefined ? c : this.addString(v, rater, unit);
    }
    throw new StatsInputError(
      `rater ${rater}, unit ${unit}: expected a number, a string or null, got ${v === null ? "null" : typeof v}`,
    );
  }

  private addNumber(v: number, rater: number, unit: number): number {
    if (!Number.isFinite(v)) {
      throw new StatsInputError(`rater ${rater}, unit ${unit}: value ${v} is not a finite number`);
    }
    if (this.level === "ratio" && v < 0) {
      throw new StatsInputError(`rater ${rater}, unit ${unit}: ratio level needs values >= 0, got ${v}`);
    }
    this.checkKind("number", rater, unit);
    const c = this.values.length;
    this.values.push(v);
    this.numbers.set(v, c);
    return c;
  }

  private addString(v: string, rater: number, unit: number): number {
    if (this.level !== "nominal") {
      throw new StatsInputError(
        `rater ${rater}, unit ${unit}: "${v}" is a string; the ${this.level} level needs numbers (strings are nominal only)`,
      );
    }
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

const INITIAL_CAPACITY = 16;
// Above this many distinct values a dense V×V matrix would cost too much memory; switch to a map.
const DENSE_MAX = 1024;
const SPARSE_STRIDE = 2 ** 26;

/**
 * The off-diagonal half of the coincidence matrix (o_ck for c < k; the diagonal never contributes
 * to disagreement) plus the value marginals n_c. Dense typed array while V is small, sparse beyond;
 * with storePairs = false only the marginals.
 */
class PairTally {
  capacity = INITIAL_CAPACITY;
  marginals = new Float64Array(INITIAL_CAPACITY);
  private dense: Float64Array | null;
  private sparse: Map<number, number> | null = null;
  private readonly storePairs: boolean;

  constructor(storePairs = true) {
    this.storePairs = storePairs;
    this.dense = storePairs ? new Float64Array(INITIAL_CAPACITY * INITIAL_CAPACITY) : null;
  }

  /** Makes room for codes 0..size−1. */
  grow(size: number): void {
    let cap = this.capacity;
    while (cap < size) cap *= 2;
    const marginals = new Float64Array(cap);
    marginals.set(this.marginals);
    this.marginals = marginals;
    if (this.dense !== null) {
      const old = this.dense;
      const oldCap = this.capacity;
      if (cap <= DENSE_MAX) {
        const dense = new Float64Array(cap * cap);
        for (let a = 0; a < oldCap; a++) dense.set(old.subarray(a * oldCap, (a + 1) * oldCap), a * cap);
        this.dense = dense;
      } else {
        if (size > SPARSE_STRIDE) throw new StatsInputError(`too many distinct values (${size})`);
        const sparse = new Map<number, number>();
        for (let a = 0; a < oldCap; a++) {
          for (let b = a + 1; b < oldCap; b++) {
            const w = old[a * oldCap + b];
            if (w !== 0) sparse.set(a * SPARSE_STRIDE + b, w);
          }
        }
        this.sparse = sparse;
        this.dense = null;
      }
    } else if (this.storePairs && size > SPARSE_STRIDE) {
      throw new StatsInputError(`too many distinct values (${size})`);
    }
    this.capacity = cap;
  }

  /** Adds one pairable unit whose m ratings are codes[0..m). */
  addUnit(codes: Int32Array, m: number): void {
    const w = 1 / (m - 1);
    const marginals = this.marginals;
    for (let i = 0; i < m; i++) {
      const a = codes[i];
      marginals[a] += 1;
      if (!this.storePairs) continue;
      for (let j = i + 1; j < m; j++) {
        const b = codes[j];
        if (a !== b) this.addPair(a, b, w);
      }
    }
  }

  /** Adds weight w to the unordered pair {a, b}, a ≠ b. */
  addPair(a: number, b: number, w: number): void {
    const lo = a < b ? a : b;
    const hi = a < b ? b : a;
    if (this.dense !== null) {
      this.dense[lo * this.capacity + hi] += w;
    } else {
      const key = lo * SPARSE_STRIDE + hi;
      this.sparse!.set(key, (this.sparse!.get(key) ?? 0) + w);
    }
  }

  forEachPair(visit: (a: number, b: number, w: number) => void): void {
    if (this.dense !== null) {
      const cap = this.capacity;
      const dense = this.dense;
      for (let a = 0; a < cap; a++) {
        for (let b = a + 1; b < cap; b++) {
          const w = dense[a * cap + b];
          if (w !== 0) visit(a, b, w);
        }
      }
    } else if (this.sparse !== null) {
      for (const [key, w] of this.sparse) {
        const a = Math.floor(key / SPARSE_STRIDE);
        visit(a, key - a * SPARSE_STRIDE, w);
      }
    }
  }
}

/**
 * The difference function δ² of a level. Interval and ordinal are both squared differences of a
 * per-value position: the value itself (interval) or its mid-rank among the pairable values
 * (ordinal: Σ_{g=c..k} n_g − (n_c + n_k)/2 equals midrank(k) − midrank(c)). That makes the
 * expected-disagreement sum a variance, computable in O(V).
 */
class MetricKernel {
  /** Codes sorted by value, for the ordinal mid-ranks; built on first use, once every value is known. */
  private order: Int32Array | null = null;

  constructor(
    readonly level: AlphaLevel,
    private readonly values: readonly (number | string)[], // may still grow until positions() is called
  ) {}

  /** Per-code positions for the metric (null for nominal). Ordinal depends on the marginals. */
  positions(marginals: Float64Array, V: number): Float64Array | null {
    if (this.level === "nominal") return null;
    const pos = new Float64Array(V);
    if (this.level === "ordinal") {
      if (this.order === null) {
        const nums = this.values as readonly number[];
        this.order = Int32Array.from(Array.from(nums.keys()).sort((a, b) => nums[a] - nums[b]));
      }
      let before = 0;
      for (let i = 0; i < V; i++) {
        const c = this.order![i];
        pos[c] = before + marginals[c] / 2;
        before += marginals[c];
      }
    } else {
      for (let c = 0; c < V; c++) pos[c] = this.values[c] as number;
    }
    return pos;
  }

  /** δ²(a, b) for a ≠ b. */
  delta(pos: Float64Array | null, a: number, b: number): number {
    return pos === null ? 1 : positionDelta(this.level, pos[a], pos[b]);
  }

  /**
   * One unit's share of the observed sum, Σ over ordered pairs of its m ratings of δ² / (m − 1),
   * for the levels whose δ² is fixed by the values (not ordinal).
   */
  unitObserved(codes: Int32Array, m: number): number {
    let sum = 0;
    for (let i = 0; i < m; i++) {
      const a = codes[i];
      for (let j = i + 1; j < m; j++) {
        const b = codes[j];
        if (a === b) continue;
        sum +=
          this.level === "nominal" ? 1 : positionDelta(this.level, this.values[a] as number, this.values[b] as number);
      }
    }
    return (2 * sum) / (m - 1);
  }

  /** Σ_c Σ_k n_c n_k δ²(c, k) over ordered pairs. */
  expectedSum(pos: Float64Array | null, marginals: Float64Array, V: number, nTotal: number): number {
    if (nTotal === 0) return 0;
    if (pos === null) {
      let sq = 0;
      for (let c = 0; c < V; c++) sq += marginals[c] * marginals[c];
      return nTotal * nTotal - sq;
    }
    if (this.level === "ratio") return ratioExpectedSum(pos, marginals, V);
    // Σ Σ n_c n_k (x_c − x_k)² = 2 n.. Σ n_c (x_c − x̄)² − 2 (Σ n_c (x_c − x̄))²; centring keeps it exact-ish.
    let mean = 0;
    for (let c = 0; c < V; c++) mean += marginals[c] * pos[c];
    mean /= nTotal;
    let s1 = 0;
    let s2 = 0;
    for (let c = 0; c < V; c++) {
      const n = marginals[c];
      if (n === 0) continue;
      const d = pos[c] - mean;
      s1 += n * d;
      s2 += n * d * d;
    }
    return 2 * nTotal * s2 - 2 * s1 * s1;
  }
}

/** δ² between two metric positions (interval/ordinal: squared difference; ratio: relative). */
function positionDelta(level: AlphaLevel, pa: number, pb: number): number {
  if (level === "ratio") {
    const s = pa + pb;
    return s === 0 ? 0 : ((pa - pb) / s) ** 2;
  }
  return (pa - pb) * (pa - pb);
}

function countPresent(marginals: Float64Array, V: number): number {
  let present = 0;
  for (let c = 0; c < V; c++) if (marginals[c] > 0) present++;
  return present;
}

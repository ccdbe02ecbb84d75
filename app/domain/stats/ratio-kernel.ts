/**
 * The ratio level's expected-disagreement sum E(n) = Σ_c Σ_k n_c n_k δ²(c, k) over ordered pairs,
 * δ²(x, y) = ((x − y) / (x + y))², values x ≥ 0.
 *
 * δ² has no numerically safe separable form (1 − 4xy/(x + y)² cancels when x ≈ y), so the sum stays
 * a double loop — but over the present values only (n_c ≠ 0), packed into typed arrays, with δ²
 * inlined. A zero value is kept out of the loop: δ²(0, x > 0) = 1, so it adds n_0 · Σ_{k≠0} n_k
 * per order. (Codes are distinct values, so at most one code is 0.)
 *
 * With many distinct values the sum goes through a low-rank factor of the kernel instead
 * (ratio-low-rank.ts); this pair loop is for few values and for values too close for that factor.
 */

/** Present values packed for the double loop: positive positions x[0..k) with weights w, plus a zero's weight. */
class Packed {
  x: Float64Array;
  w: Float64Array;
  k = 0;
  zeroWeight = 0;
  positiveWeight = 0; // Σ w over the positive positions
  private min = Infinity; // range of the positive positions
  private max = 0;

  constructor(capacity: number) {
    this.x = new Float64Array(capacity);
    this.w = new Float64Array(capacity);
  }

  reset(): void {
    this.k = 0;
    this.zeroWeight = 0;
    this.positiveWeight = 0;
    this.min = Infinity;
    this.max = 0;
  }

  add(x: number, w: number): void {
    if (x === 0) {
      this.zeroWeight += w;
    } else {
      this.x[this.k] = x;
      this.w[this.k++] = w;
      this.positiveWeight += w;
      if (x < this.min) this.min = x;
      if (x > this.max) this.max = x;
    }
  }

  /** Σ_c Σ_k w_c w_k δ²(c, k) over ordered pairs (bilinear, so signed weights work too). */
  orderedSum(): number {
    const { x, w, k } = this;
    // Division bounds the loop, so two pairs share one: a/s and b/t as a·t·r and b·s·r, r = 1/(s·t)
    // (a few ulps per δ², no cancellation; measured ~20% faster). Only where s·t cannot overflow
    // or underflow; outside that range every pair divides on its own.
    const paired = this.min >= 1e-150 && this.max <= 1e150;
    let sum = 0;
    for (let i = 0; i < k - 1; i++) {
      const xi = x[i];
      let row = 0; // one row's sum first: fewer multiplications, and a better-conditioned total
      let j = i + 1;
      if (paired) {
        for (; j + 1 < k; j += 2) {
          const s = xi + x[j];
          const t = xi + x[j + 1];
          const r = 1 / (s * t);
          const q = (xi - x[j]) * t * r;
          const p = (xi - x[j + 1]) * s * r;
          row += w[j] * q * q + w[j + 1] * p * p;
        }
      }
      for (; j < k; j++) {
        const q = (xi - x[j]) / (xi + x[j]);
        row += w[j] * q * q;
      }
      sum += w[i] * row;
    }
    return 2 * (sum + this.zeroWeight * this.positiveWeight);
  }
}

/** E(n) for per-code positions `pos` and counts `marginals` over codes 0..V−1. */
export function ratioExpectedSum(pos: Float64Array, marginals: Float64Array, V: number): number {
  const packed = new Packed(V);
  for (let c = 0; c < V; c++) if (marginals[c] !== 0) packed.add(pos[c], marginals[c]);
  return packed.orderedSum();
}

/**
 * E(n') for many bootstrap draws n' of the same data n. A draw only resamples units of the data,
 * so its present codes are a subset of n's ("support"); every draw costs O(|support|) plus the
 * cheaper of two quadratic sums:
 *   direct       E(n') over the codes with n'_c ≠ 0                         ~ nnz(n')² / 2 pairs
 *   incremental  E(n) + 2 Δ·g + ΔᵀDΔ with Δ = n' − n, g = D·n (once)        ~ nnz(Δ)² / 2 pairs
 A count of c units stays put with probability ≈ P(Poisson(c) = c) and vanishes with e^−c, so
 * nnz(Δ) < nnz(n') for counts of a few units; large counts nearly all change and the two costs
 * meet (1,000 values × ~200 ratings each: a few % stay, incremental measured ~10% faster); with few
 * values and large counts every count changes and the direct sum is taken (ties go direct). The
 * incremental sum is exact up to rounding in its three terms; when they cancel (E(n') far below
 * their size, which would amplify that rounding) the draw is recomputed directly.
 */
export class RatioDrawSums {
  private readonly support: Int32Array; // codes with n_c ≠ 0
  private readonly base: Float64Array; // n_c over the support
  private readonly gradient: Float64Array; // g_c = Σ_k δ²(c, k) n_k over the support
  private readonly baseSum: number; // E(n)
  private readonly packed: Packed;
  /** Draws computed each way (for tests and benchmarks). */
  readonly paths = { direct: 0, incremental: 0, fallback: 0 };

  constructor(
    private readonly pos: Float64Array,
    marginals: Float64Array,
    V: number,
  ) {
    const support: number[] = [];
    for (let c = 0; c < V; c++) if (marginals[c] !== 0) support.push(c);
    this.support = Int32Array.from(support);
    this.base = Float64Array.from(support, (c) => marginals[c]);
    this.gradient = rowSums(
      Float64Array.from(support, (c) => pos[c]),
      this.base,
    );
    let e = 0;
    for (let i = 0; i < support.length; i++) e += this.base[i] * this.gradient[i];
    this.baseSum = e;
    this.packed = new Packed(support.length);
  }

  /** E(n') for a draw's counts (indexed by code; zero outside the support). */
  expectedSum(marginals: Float64Array): number {
    const { support, base } = this;
    let nnzDraw = 0;
    let nnzDelta = 0;
    for (let i = 0; i < support.length; i++) {
      const v = marginals[support[i]];
      if (v !== 0) nnzDraw++;
      if (v !== base[i]) nnzDelta++;
    }
    if (nnzDelta < nnzDraw) {
      const e = this.incremental(marginals);
      if (e !== null) {
        this.paths.incremental++;
        return e;
      }
      this.paths.fallback++;
    } else {
      this.paths.direct++;
    }
    const packed = this.packed;
    packed.reset();
    for (let i = 0; i < support.length; i++) {
      const v = marginals[support[i]];
      if (v !== 0) packed.add(this.pos[support[i]], v);
    }
    return packed.orderedSum();
  }

  /** E(n) + 2 Δ·g + ΔᵀDΔ, or null when the terms cancel too much to trust the result to ~1e-13. */
  private incremental(marginals: Float64Array): number | null {
    const { support, base, gradient, packed } = this;
    packed.reset();
    let linear = 0;
    let linearSize = 0;
    let deltaSize = 0;
    for (let i = 0; i < support.length; i++) {
      const d = marginals[support[i]] - base[i];
      if (d === 0) continue;
      packed.add(this.pos[support[i]], d);
      linear += d * gradient[i];
      linearSize += Math.abs(d) * gradient[i];
      deltaSize += Math.abs(d);
    }
    const result = this.baseSum + 2 * linear + packed.orderedSum();
    // δ² ≤ 1, so |ΔᵀDΔ| ≤ (Σ|Δ|)²: `size` bounds every term's magnitude.
    const size = this.baseSum + 2 * linearSize + deltaSize * deltaSize;
    return result > 1e-3 * size ? result : null;
  }
}

/** g_i = Σ_j w_j δ²(x_i, x_j) for distinct positions x (≥ 0) and weights w; δ²(0, x > 0) = 1 by the formula. */
function rowSums(x: Float64Array, w: Float64Array): Float64Array {
  const k = x.length;
  const g = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    const xi = x[i];
    let row = 0;
    for (let j = i + 1; j < k; j++) {
      const q = (xi - x[j]) / (xi + x[j]); // distinct values: never 0 / 0
      const d = q * q;
      row += w[j] * d;
      g[j] += w[i] * d;
    }
    g[i] += row;
  }
  return g;
}

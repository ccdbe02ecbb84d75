/**
 * The ratio level's expected-disagreement sum through a low-rank factor of its kernel.
 *
 * For positive x, y: δ²(x, y) = ((x − y) / (x + y))² = 1 − S(x, y) with S(x, y) = 4xy / (x + y)².
 * In log space S is sech²((ln x − ln y) / 2), a smooth positive-definite kernel of the difference,
 * so the matrix S over the distinct positive values has a small numerical rank (about 30 for the
 * values 1..1,000 and 40 for 1..10,000 at 1e-14). Pivoted Cholesky builds S ≈ L Lᵀ one column at
 * a time and stops once every residual diagonal entry is below TOL. The residual R = S − L Lᵀ is
 * positive semi-definite, so |R_ck| ≤ √(R_cc R_kk) ≤ TOL and |wᵀ R w| ≤ TOL · (Σ w)² for weights
 * w ≥ 0. Then
 *   Σ_c Σ_k w_c w_k δ²(c, k) = (Σ w)² − wᵀ S w ≈ (Σ w)² − Σ_j (L_jᵀ w)²
 * costs V · rank per weight vector instead of V² / 2 pairs. The subtraction is only trusted when
 * the result is large beside that error bound; values packed so closely that it is not (relative
 * spreads far below 1%) get null, and the caller sums pair by pair.
 */

const TOL = 1e-14;
const TRUSTED = 1e-11; // largest accepted error bound relative to the result

export class RatioLowRank {
  private constructor(
    readonly size: number, // V
    readonly rank: number,
    private readonly factors: Float64Array, // rank rows of V: row j holds column j of L
  ) {}

  /**
   * Factor for the positive values x (distinct), or null when it needs more than maxRank columns
   * or the values are too extreme for the kernel's products (outside [1e-150, 1e150]).
   */
  static build(x: Float64Array, maxRank: number): RatioLowRank | null {
    const V = x.length;
    for (let c = 0; c < V; c++) if (!(x[c] >= 1e-150 && x[c] <= 1e150)) return null;
    const residual = new Float64Array(V).fill(1); // S_cc = 1
    const factors = new Float64Array(Math.min(maxRank, V) * V);
    for (let j = 0; j < maxRank && j < V; j++) {
      let p = 0;
      for (let c = 1; c < V; c++) if (residual[c] > residual[p]) p = c;
      if (residual[p] <= TOL) return new RatioLowRank(V, j, factors.subarray(0, j * V));
      const row = factors.subarray(j * V, (j + 1) * V);
      const xp = x[p];
      for (let c = 0; c < V; c++) {
        const r = 1 / (xp + x[c]);
        row[c] = 4 * (xp * r) * (x[c] * r);
      }
      for (let i = 0; i < j; i++) {
        const prev = factors.subarray(i * V, (i + 1) * V);
        const f = prev[p];
        if (f !== 0) for (let c = 0; c < V; c++) row[c] -= f * prev[c];
      }
      const scale = 1 / Math.sqrt(residual[p]);
      for (let c = 0; c < V; c++) {
        row[c] *= scale;
        residual[c] -= row[c] * row[c];
      }
      residual[p] = 0;
    }
    let worst = 0;
    for (let c = 0; c < V; c++) if (residual[c] > worst) worst = residual[c];
    return worst <= TOL ? new RatioLowRank(V, Math.min(maxRank, V), factors) : null;
  }

  /** Σ_c Σ_k w_c w_k δ²(c, k) over ordered pairs for weights w ≥ 0 (length V), or null if not trusted. */
  expectedSum(w: Float64Array): number | null {
    const { size, rank, factors } = this;
    let total = 0;
    for (let c = 0; c < size; c++) total += w[c];
    let quadratic = 0;
    let j = 0;
    // Two rows a pass: two independent sums instead of one chain of additions, w read once.
    for (; j + 1 < rank; j += 2) {
      let dot = 0;
      let next = 0;
      const base = j * size;
      for (let c = 0; c < size; c++) {
        const wc = w[c];
        dot += factors[base + c] * wc;
        next += factors[base + size + c] * wc;
      }
      quadratic += dot * dot;
      quadratic += next * next;
    }
    if (j < rank) {
      let dot = 0;
      const base = j * size;
      for (let c = 0; c < size; c++) dot += factors[base + c] * w[c];
      quadratic += dot * dot;
    }
    const result = total * total - quadratic;
    // Truncation (TOL) plus rounding of the factor and of the sums, each a share of (Σ w)².
    const bound = (TOL + 1e-15 * (rank + 16)) * total * total;
    return result > 0 && bound <= TRUSTED * result ? result : null;
  }
}

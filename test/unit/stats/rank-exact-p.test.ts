// Exact small-sample p-values of Spearman's ρ and Kendall's τ-b (issue 28), against SciPy 1.17.
//
// Reference values, computed once with python3 (scipy 1.17.1, numpy 2.4.6) and pinned here:
// - exact Spearman p: scipy.stats.permutation_test((x,), statistic = Σ(rank(x) − rank(y))² along
//   the axis, permutation_type="pairings", n_resamples=inf, alternative="two-sided") — every one
//   of the n! pairings; source "scipy". For n = 11 and 12 that takes too long, so the count of all
//   n! pairings by Σd² was enumerated with numpy instead (source "own"); that enumeration
//   agreed with permutation_test to 1e-12 on every case n ≤ 10 here. Σd² (integers) rather than ρ
//   as the statistic: permutation_test compares floats, and ρ computed in floating point makes
//   pairings with exactly the observed ρ miss their tail (at ρ = 0 it gave 0.98 instead of 1).
// - exact Kendall p: scipy.stats.kendalltau(x, y, method="exact"), equal to its default 'auto'.
// - asymptotic: scipy.stats.spearmanr(x, y).pvalue (t approximation) and kendalltau(x, y).pvalue.
// Each n has a positive, a negative and a "zero" pairing (ρ exactly 0 where n allows it; no
// pairing of 3 has ρ = 0, so n3-zero is the nearest, ρ = −0.5), and n = 8, 10 a weak one.
import { describe, expect, it } from "vitest";
import { kendallTauB, spearman, SPEARMAN_EXACT_MAX_N, type PValueMethod } from "../../../app/domain/stats/index.ts";
import { spearmanExactP } from "../../../app/domain/stats/rank-exact-p.ts";

type ExactRow = [
  name: string,
  x: number[],
  y: number[],
  rho: number,
  pRho: number,
  source: "scipy" | "own",
  tau: number,
  pTau: number,
];
type AsymptoticRow = [
  name: string,
  x: number[],
  y: number[],
  rho: number,
  pRho: number,
  rhoMethod: PValueMethod,
  tau: number,
  pTau: number,
  tauMethod: PValueMethod,
];
/**
 * Beyond n = 12, rankings equal or reversed up to one adjacent swap: the tail is the same n pairings for ρ and τ, so
 * pRho = pTau = SciPy's exact kendalltau p (2/n!, 2/(n−1)!).
 */
type ClosedFormRow = [name: string, x: number[], y: number[], rho: number, tau: number, p: number];

const EXACT: ExactRow[] = [
  ["n3-identical", [1, 2, 3], [1, 2, 3], 1, 0.3333333333333333, "scipy", 1, 0.3333333333333333],
  ["n3-negative", [0.576, 0.253, 0.486], [45.728, 74.513, 28.832], -0.5, 1, "scipy", -0.33333333333333337, 1],
  ["n3-positive", [0.651, 0.316, 0.242], [96.415, 54.042, 95.082], 0.5, 1, "scipy", 0.33333333333333337, 1],
  ["n3-zero", [0.968, 0.128, 0.279], [50.653, 63.421, 73.155], -0.5, 1, "scipy", -0.33333333333333337, 1],
  [
    "n4-negative",
    [0.102, 0.528, 0.208, 0.618],
    [45.525, 19.017, 58.468, 36.311],
    -0.6000000000000001,
    0.4166666666666667,
    "scipy",
    -0.3333333333333334,
    0.75,
  ],
  [
    "n4-positive",
    [0.01, 0.923, 0.19, 0.491],
    [63.586, 96.67, 1.562, 99.558],
    0.6000000000000001,
    0.4166666666666667,
    "scipy",
    0.3333333333333334,
    0.75,
  ],
  ["n4-zero", [0.17, 0.63, 0.62, 0.801], [74.631, 17.907, 77.876, 75.447], 0, 1, "scipy", 0, 1],
  [
    "n5-negative",
    [0.358, 0.626, 0.305, 0.336, 0.734],
    [38.916, 54.725, 92.017, 18.484, 7.786],
    -0.6,
    0.35,
    "scipy",
    -0.39999999999999997,
    0.48333333333333334,
  ],
  [
    "n5-positive",
    [0.638, 0.808, 0.87, 0.503, 0.819],
    [37.025, 46.925, 44.437, 26.634, 88.746],
    0.7,
    0.23333333333333334,
    "scipy",
    0.6,
    0.23333333333333334,
  ],
  [
    "n5-zero",
    [0.017, 0.714, 0.557, 0.837, 0.04],
    [87.238, 62.107, 35.327, 75.225, 23.613],
    0,
    1,
    "scipy",
    0.19999999999999998,
    0.8166666666666667,
  ],
  [
    "n6-negative",
    [0.632, 0.812, 0.43, 0.86, 0.116, 0.486],
    [23.29, 50.546, 52.248, 18.461, 97.748, 12.467],
    -0.6,
    0.24166666666666667,
    "scipy",
    -0.4666666666666666,
    0.2722222222222222,
  ],
  [
    "n6-positive",
    [0.681, 0.125, 0.677, 0.389, 0.365, 0.929],
    [91.748, 70.245, 83.799, 44.702, 57.477, 85.42],
    0.7142857142857143,
    0.1361111111111111,
    "scipy",
    0.4666666666666666,
    0.2722222222222222,
  ],
  [
    "n6-zero",
    [0.099, 0.579, 0.712, 0.927, 0.876, 0.523],
    [61.287, 60.775, 32.183, 55.921, 74.188, 55.326],
    -0.028571428571428574,
    1,
    "scipy",
    -0.06666666666666665,
    1,
  ],
  [
    "n7-negative",
    [0.227, 0.746, 0.973, 0.728, 0.792, 0.109, 0.845],
    [12.542, 12.809, 7.245, 35.766, 21.608, 68.77, 12.807],
    -0.6071428571428572,
    0.16666666666666666,
    "scipy",
    -0.5238095238095238,
    0.1361111111111111,
  ],
  [
    "n7-positive",
    [0.067, 0.414, 0.524, 0.756, 0.835, 0.108, 0.236],
    [3.787, 50.075, 4.592, 53.286, 90.812, 3.028, 83.062],
    0.7142857142857144,
    0.0880952380952381,
    "scipy",
    0.5238095238095238,
    0.1361111111111111,
  ],
  [
    "n7-zero",
    [0.17, 0.304, 0.553, 0.914, 0.517, 0.189, 0.624],
    [11.206, 53.654, 64.619, 6.398, 48.26, 80.016, 93.102],
    0,
    1,
    "scipy",
    0.04761904761904762,
    1,
  ],
  [
    "n8-negative",
    [0.47, 0.194, 0.191, 0.024, 0.465, 0.844, 0.411, 0.403],
    [5.448, 89.381, 40.832, 10.744, 3.721, 8.17, 11.367, 57.94],
    -0.5952380952380953,
    0.13229166666666667,
    "scipy",
    -0.3571428571428571,
    0.27509920634920637,
  ],
  [
    "n8-positive",
    [0.552, 0.918, 0.373, 0.175, 0.084, 0.748, 0.411, 0.021],
    [59.27, 76.87, 35.808, 79.258, 20.555, 99.431, 70.408, 7.754],
    0.6904761904761906,
    0.06939484126984127,
    "scipy",
    0.5714285714285714,
    0.06101190476190476,
  ],
  [
    "n8-weak",
    [0.506, 0.565, 0.512, 0.972, 0.615, 0.568, 0.287, 0.555],
    [90.332, 60.554, 60.751, 59.682, 68.277, 47.22, 29.119, 32.035],
    0.11904761904761905,
    0.7930059523809524,
    "scipy",
    0.07142857142857142,
    0.9048611111111111,
  ],
  [
    "n8-zero",
    [0.663, 0.061, 0.788, 0.307, 0.363, 0.685, 0.08, 0.136],
    [15.194, 31.777, 12.109, 13.358, 12.286, 76.936, 6.758, 74.042],
    0,
    1,
    "scipy",
    0,
    1,
  ],
  [
    "n9-negative",
    [0.119, 0.398, 0.079, 0.926, 0.043, 0.662, 0.345, 0.873, 0.575],
    [76.836, 65.134, 64.571, 24.753, 36.466, 48.95, 57.28, 34.493, 34.325],
    -0.6,
    0.09679783950617284,
    "scipy",
    -0.4444444444444444,
    0.11943893298059964,
  ],
  [
    "n9-positive",
    [0.694, 0.281, 0.953, 0.591, 0.568, 0.066, 0.458, 0.241, 0.163],
    [63.366, 18.434, 95.696, 86.621, 20.935, 23.391, 66.306, 46.467, 11.323],
    0.7,
    0.04325396825396825,
    "scipy",
    0.5555555555555556,
    0.04461529982363316,
  ],
  [
    "n9-zero",
    [0.932, 0.339, 0.22, 0.391, 0.286, 0.758, 0.857, 0.685, 0.614],
    [78.249, 26.272, 86.365, 92.214, 33.887, 33.642, 73.182, 42.651, 94.712],
    0,
    1,
    "scipy",
    0.05555555555555555,
    0.919455467372134,
  ],
  [
    "n10-negative",
    [0.125, 0.763, 0.396, 0.103, 0.229, 0.57, 0.224, 0.789, 0.197, 0.999],
    [21.739, 38.499, 82.501, 91.211, 61.608, 20.853, 51.598, 2.47, 28.967, 12.672],
    -0.6,
    0.07342647707231041,
    "scipy",
    -0.37777777777777777,
    0.1557418430335097,
  ],
  [
    "n10-positive",
    // biome-ignore lint/suspicious/noApproximativeNumericConstant: 0.434 is a random sample value, not log10(e)
    [0.253, 0.162, 0.66, 0.933, 0.219, 0.152, 0.434, 0.963, 0.706, 0.345],
    [31.875, 26.534, 34.838, 61.108, 55.561, 5.341, 84.281, 84.239, 49.313, 56.469],
    0.6969696969696969,
    0.030559964726631392,
    "scipy",
    0.6,
    0.016666115520282188,
  ],
  [
    "n10-weak",
    [0.075, 0.916, 0.022, 0.043, 0.763, 0.092, 0.592, 0.298, 0.824, 0.657],
    [99.763, 31.512, 11.643, 59.932, 19.736, 95.624, 28.174, 59.833, 95.937, 11.523],
    -0.10303030303030303,
    0.7850225970017637,
    "scipy",
    -0.1111111111111111,
    0.7274895282186948,
  ],
  [
    "n10-zero",
    [0.899, 0.246, 0.863, 0.028, 0.923, 0.334, 0.249, 0.193, 0.265, 0.395],
    [16.561, 84.505, 71.589, 18.657, 80.983, 55.892, 57.805, 50.515, 85.941, 9.587],
    0.006060606060606061,
    1,
    "scipy",
    0.06666666666666667,
    0.8618005952380953,
  ],
  [
    "n11-negative",
    [0.362, 0.982, 0.483, 0.979, 0.136, 0.158, 0.176, 0.422, 0.2, 0.021, 0.4],
    [33.843, 36.094, 14.044, 13.12, 34.163, 99.006, 82.528, 58.672, 97.514, 88.473, 60.039],
    -0.6000000000000001,
    0.05622835497835498,
    "own",
    -0.4909090909090909,
    0.04053235730319064,
  ],
  [
    "n11-positive",
    [0.378, 0.739, 0.568, 0.352, 0.809, 0.838, 0.058, 0.851, 0.982, 0.728, 0.46],
    [12.096, 86.036, 17.345, 2.538, 49.312, 30.545, 14.666, 99.219, 78.689, 86.145, 59.406],
    0.7000000000000001,
    0.020354387125220457,
    "own",
    0.4909090909090909,
    0.04053235730319064,
  ],
  [
    "n11-zero",
    [0.785, 0.421, 0.362, 0.006, 0.713, 0.356, 0.711, 0.864, 0.885, 0.549, 0.464],
    [77.279, 1.37, 66.277, 40.083, 19.146, 67.97, 40.527, 28.216, 41.428, 46.204, 18.085],
    0,
    1,
    "own",
    0.018181818181818184,
    1,
  ],
  [
    "n12-negative",
    [0.154, 0.443, 0.669, 0.944, 0.751, 0.763, 0.699, 0.676, 0.712, 0.371, 0.015, 0.553],
    [80.583, 90.667, 14.835, 79.073, 3.01, 43.635, 76.886, 61.265, 80.358, 81.26, 85.279, 43.831],
    -0.6013986013986015,
    0.04280047916332638,
    "own",
    -0.3636363636363636,
    0.11595087782587783,
  ],
  [
    "n12-positive",
    [0.048, 0.317, 0.699, 0.402, 0.537, 0.288, 0.013, 0.133, 0.18, 0.1, 0.278, 0.663],
    [3.013, 58.14, 46.094, 36.157, 65.997, 56.092, 34.751, 7.819, 38.418, 40.442, 6.81, 68.421],
    0.6993006993006995,
    0.014208203062369728,
    "own",
    0.5151515151515151,
    0.020980351631393297,
  ],
  [
    "n12-reversed",
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    [12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1],
    -1,
    4.17535139757362e-9,
    "own",
    -0.9999999999999998,
    4.17535139757362e-9,
  ],
  [
    "n12-zero",
    [0.002, 0.04, 0.748, 0.202, 0.605, 0.787, 0.295, 0.072, 0.669, 0.393, 0.545, 0.86],
    [57.19, 25.908, 52.969, 64.452, 82.794, 20.007, 44.407, 74.872, 33.062, 51.183, 43.481, 95.927],
    0,
    1,
    "own",
    -0.0303030303030303,
    0.9465592891547753,
  ],
];

const ASYMPTOTIC: AsymptoticRow[] = [
  [
    "n13-asymptotic",
    [0.182, 0.224, 0.831, 0.342, 0.709, 0.792, 0.344, 0.822, 0.864, 0.385, 0.184, 0.055, 0.725],
    [-1.552, -1.286, 1.653, -1.446, 0.337, 1.307, -2.134, 1.265, 2.277, -0.502, -1.516, -2.565, 0.795],
    0.9340659340659341,
    2.9987037500995776e-6,
    "asymptotic",
    0.846153846153846,
    5.202487841376731e-6,
    "exact",
  ],
  [
    "n20-asymptotic",
    [
      0.926, 0.467, 0.059, 0.33, 0.73, 0.281, 0.813, 0.943, 0.823, 0.89, 0.509, 0.887, 0.329, 0.855, 0.39, 0.34, 0.243,
      0.272, 0.141, 0.028,
    ],
    [
      -2.029, 1.084, 1.36, 0.315, -0.227, 0.004, -1.866, -1.34, -2.602, -0.003, 0.624, -1.727, 1.98, -2.2, 2.017,
      -0.706, 0.731, -0.108, 1.336, 2.544,
    ],
    -0.7383458646616541,
    0.0002014294307883675,
    "asymptotic",
    -0.5368421052631579,
    0.000638160515782914,
    "exact",
  ],
  [
    "n40-asymptotic",
    [
      0.149, 0.595, 0.009, 0.079, 0.756, 0.963, 0.054, 0.681, 0.451, 0.615, 0.112, 0.38, 0.924, 0.895, 0.278, 0.939,
      0.72, 0.462, 0.891, 0.125, 0.757, 0.194, 0.722, 0.569, 0.955, 0.929, 0.636, 0.16, 0.556, 0.04, 0.345, 0.795,
      0.916, 0.592, 0.376, 0.425, 0.616, 0.984, 0.489, 0.882,
    ],
    [
      0.216, 1.897, 0.71, -3.181, 1.731, 0.513, -2.712, -0.389, 2.674, -0.468, -1.515, -1.056, 0.418, 2.62, 0.008,
      2.028, -0.803, -2.007, 0.608, -0.001, -1.381, -2.468, 2.284, -0.08, 3.56, -0.263, 1.203, -2.101, -0.543, -2.836,
      -0.728, 0.199, 2.12, 0.51, -1.441, -0.052, 0.291, 2.388, 0.067, 2.126,
    ],
    0.6260787992495309,
    1.554376769568793e-5,
    "asymptotic",
    0.4641025641025641,
    2.468347736871764e-5,
    "asymptotic",
  ],
  [
    "n6-ties",
    [0.2, 0.5, 0.5, 0.9, 0.1, 0.7],
    [3, 4, 6, 6, 1, 5],
    0.8382352941176471,
    0.03713521524526766,
    "asymptotic",
    0.7857142857142858,
    0.032284353910766825,
    "asymptotic",
  ],
];

const CLOSED_FORM: ClosedFormRow[] = [
  [
    "n13-identical",
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
    1,
    0.9999999999999998,
    3.2118087673643227e-10,
  ],
  [
    "n15-one-swap",
    [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    [1, 2, 3, 4, 5, 6, 8, 7, 9, 10, 11, 12, 13, 14, 15],
    0.9964285714285712,
    0.980952380952381,
    2.294149119545945e-11,
  ],
  [
    "n40-reversed-one-swap",
    [
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
      32, 33, 34, 35, 36, 37, 38, 39, 40,
    ],
    [
      40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 19, 20, 18, 17, 16, 15, 14, 13,
      12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1,
    ],
    -0.9998123827392121,
    -0.9974358974358974,
    9.804939513027087e-47,
  ],
];

/** |a − b| ≤ tol, and also relative to b, so tiny p-values are checked digit for digit. */
function near(actual: number | null, expected: number, tol: number, what: string): void {
  expect(actual, what).not.toBeNull();
  expect(Math.abs(actual! - expected), `${what}: got ${actual}, want ${expected}`).toBeLessThanOrEqual(
    tol * Math.max(1, Math.abs(expected)),
  );
  if (expected !== 0)
    expect(Math.abs(actual! - expected) / Math.abs(expected), `${what} (relative)`).toBeLessThanOrEqual(
      Math.max(tol, 1e-12),
    );
}

interface Expected {
  rho: number;
  pRho: number;
  rhoMethod: PValueMethod;
  tau: number;
  pTau: number;
  tauMethod: PValueMethod;
}

/** Both coefficients to 1e-12; exact p to 1e-12, asymptotic p to the accuracy of its tail function. */
function expectBoth(x: number[], y: number[], want: Expected): void {
  const s = spearman(x, y);
  expect(s.method).toBe(want.rhoMethod);
  near(s.rho, want.rho, 1e-12, "rho");
  // The t tail goes through jstat's incomplete beta, good to ~1e-8 relative (correlation.test.ts).
  near(s.p, want.pRho, want.rhoMethod === "exact" ? 1e-12 : 1e-7, "Spearman p");
  const k = kendallTauB(x, y);
  expect(k.method).toBe(want.tauMethod);
  near(k.tau, want.tau, 1e-12, "tau");
  near(k.p, want.pTau, want.tauMethod === "exact" ? 1e-12 : 1e-9, "Kendall p");
}

describe("exact p without ties, n = 3 … 12, against SciPy", () => {
  it("covers every n from 3 to 12 with a positive, a negative and a zero correlation", () => {
    for (let n = 3; n <= SPEARMAN_EXACT_MAX_N; n++) {
      for (const kind of ["positive", "negative", "zero"]) expect(EXACT.map((r) => r[0])).toContain(`n${n}-${kind}`);
    }
    expect(SPEARMAN_EXACT_MAX_N).toBe(12);
  });
  for (const [name, x, y, rho, pRho, source, tau, pTau] of EXACT) {
    it(`${name}: Spearman p ${pRho} (${source}), Kendall p ${pTau}, both exact to 1e-12`, () => {
      expectBoth(x, y, { rho, pRho, rhoMethod: "exact", tau, pTau, tauMethod: "exact" });
    });
  }
  it("x = y = [1, 2, 3]: both p are 1/3 (2 of the 6 pairings are as extreme)", () => {
    expect(spearman([1, 2, 3], [1, 2, 3])).toEqual({ n: 3, rho: 1, p: 1 / 3, method: "exact" });
    expect(kendallTauB([1, 2, 3], [1, 2, 3])).toMatchObject({ p: 1 / 3, method: "exact" });
  });
});

describe("asymptotic above the threshold and with ties", () => {
  for (const [name, x, y, rho, pRho, rhoMethod, tau, pTau, tauMethod] of ASYMPTOTIC) {
    it(`${name}: Spearman ${rhoMethod}, Kendall ${tauMethod}`, () => {
      expectBoth(x, y, { rho, pRho, rhoMethod, tau, pTau, tauMethod });
    });
  }
  it("a tie switches Spearman and Kendall to the asymptotic p even at n = 3", () => {
    expect(spearman([1, 2, 2], [1, 2, 3]).method).toBe("asymptotic");
    expect(kendallTauB([1, 2, 3], [3, 3, 1]).method).toBe("asymptotic");
  });
});

describe("exact at any n for rankings equal or reversed up to one adjacent swap", () => {
  for (const [name, x, y, rho, tau, p] of CLOSED_FORM) {
    it(`${name}: p ${p}`, () => {
      expectBoth(x, y, { rho, pRho: p, rhoMethod: "exact", tau, pTau: p, tauMethod: "exact" });
    });
  }
  it("refuses a full count above n = 12 instead of running out of memory", () => {
    // n = 13, Σd² = 8: two disjoint moves of two places each; not a closed-form case.
    expect(() => spearmanExactP(13, 8)).toThrow(/up to n = 12/);
  });
});

/** Every permutation of 0..n−1, for the brute-force check. */
function permutations(n: number): number[][] {
  if (n === 0) return [[]];
  return permutations(n - 1).flatMap((p) =>
    Array.from({ length: n }, (_, i) => [...p.slice(0, i), n - 1, ...p.slice(i)]),
  );
}

describe("the counting algorithm against brute force", () => {
  it("gives min(1, 2·min(P(S ≤ s), P(S ≥ s))) over all n! pairings for every attainable Σd², n = 3 … 8", () => {
    for (let n = 3; n <= 8; n++) {
      const sums = permutations(n).map((p) => p.reduce((acc, v, i) => acc + (i - v) ** 2, 0));
      const total = sums.length;
      for (const s of new Set(sums)) {
        const below = sums.filter((v) => v <= s).length;
        const above = sums.filter((v) => v >= s).length;
        const expected = Math.min(1, (2 * Math.min(below, above)) / total);
        expect(Math.abs(spearmanExactP(n, s) - expected), `n = ${n}, Σd² = ${s}`).toBeLessThanOrEqual(1e-15);
      }
    }
  });
  it("gives p = 1 at ρ = 0 (the observed value counts in both tails)", () => {
    // n = 4: Σd² = 10 is the mean n(n²−1)/6, so ρ = 0.
    expect(spearman([1, 2, 3, 4], [2, 4, 1, 3])).toMatchObject({ rho: 0, p: 1, method: "exact" });
  });
  it("keeps undefined correlations without a method", () => {
    expect(spearman([1, 1, 1], [1, 2, 3])).toMatchObject({ rho: null, p: null, method: null });
    expect(kendallTauB([1, 2], [2, 1])).toMatchObject({ tau: null, p: null, method: null });
  });
});

"""Python side of bench/stats.ts: the references our alpha kernels are timed against.

Three references, each timed in CPU seconds (time.process_time, every thread of this process):
  fk          fast-krippendorff's alpha() (its source on PYTHONPATH; not vendored here);
  numpy       a plain numpy coincidence-matrix alpha (ours, below): codes by np.unique, the
              coincidence matrix from the pairs of present ratings (dense bincount when V² is
              small, unique pair keys otherwise), D_e summed over the V × V value pairs in row
              blocks;
  numpy-boot  its bootstrap: every draw resamples the pairable units with replacement and
              recomputes the coincidence matrix and alpha (codes are found once, up front).

Protocol: one JSON object per line on stdin, one JSON answer per line on stdout.
  {"op": "load", "name", "path", "raters", "units"}   float64 file, rows = raters, NaN = missing
  {"op": "run", "ref", "name", "level", "draws"?, "seed"?} -> {"seconds", "alpha"}
"""

import json
import sys
import time

import numpy as np

DENSE_MAX = 2048  # above this many values the coincidence matrix is kept as unique pair keys
BLOCK = 512  # rows of the V × V expected-disagreement sum per block (bounds memory)


def delta_rows(level, values, rows, ranks):
    """δ² between values[rows] (as a column) and every value."""
    if level == "nominal":
        return (rows[:, None] != np.arange(len(values))[None, :]).astype(np.float64)
    if level == "ordinal":
        return (ranks[rows][:, None] - ranks[None, :]) ** 2
    a = values[rows][:, None]
    b = values[None, :]
    if level == "interval":
        return (a - b) ** 2
    s = a + b
    return np.divide(a - b, s, out=np.zeros(np.broadcast_shapes(a.shape, b.shape)), where=s != 0) ** 2


def delta_pairs(level, values, a, b, ranks):
    if level == "nominal":
        return (a != b).astype(np.float64)
    if level == "ordinal":
        return (ranks[a] - ranks[b]) ** 2
    x, y = values[a], values[b]
    if level == "interval":
        return (x - y) ** 2
    s = x + y
    return np.divide(x - y, s, out=np.zeros(len(s)), where=s != 0) ** 2


def encode(data):
    """Codes of the pairable units' ratings (-1 = missing), the sorted distinct values, 1/(m-1)."""
    present = ~np.isnan(data)
    m = present.sum(axis=0)
    keep = m >= 2
    data, present, m = data[:, keep], present[:, keep], m[keep]
    values, inverse = np.unique(data[present], return_inverse=True)
    codes = np.full(data.shape, -1, dtype=np.int64)
    codes[present] = inverse
    return codes, values, 1.0 / (m - 1)


def alpha_from_codes(codes, values, weight, level):
    V = len(values)
    raters = codes.shape[0]
    firsts, seconds, weights = [], [], []
    for i in range(raters):
        for j in range(raters):
            if i == j:
                continue
            both = (codes[i] >= 0) & (codes[j] >= 0)
            firsts.append(codes[i, both])
            seconds.append(codes[j, both])
            weights.append(weight[both])
    a = np.concatenate(firsts)
    b = np.concatenate(seconds)
    w = np.concatenate(weights)
    n = np.bincount(a, weights=w, minlength=V)  # marginals n_c
    total = n.sum()
    ranks = np.cumsum(n) - n / 2 if level == "ordinal" else None
    if V <= DENSE_MAX:
        o = np.bincount(a * V + b, weights=w, minlength=V * V).reshape(V, V)
        observed = (o * delta_rows(level, values, np.arange(V), ranks)).sum()
    else:
        keys, inverse = np.unique(a * V + b, return_inverse=True)
        o = np.bincount(inverse, weights=w)
        observed = (o * delta_pairs(level, values, keys // V, keys % V, ranks)).sum()
    expected = 0.0
    for start in range(0, V, BLOCK):
        rows = np.arange(start, min(V, start + BLOCK))
        expected += (n[rows][:, None] * delta_rows(level, values, rows, ranks) * n[None, :]).sum()
    if total == 0 or expected == 0:
        return None
    return float(1 - (total - 1) * observed / expected)


def numpy_alpha(data, level):
    codes, values, weight = encode(data)
    return alpha_from_codes(codes, values, weight, level)


def numpy_bootstrap(data, level, draws, seed):
    codes, values, weight = encode(data)
    units = codes.shape[1]
    rng = np.random.default_rng(seed)
    alphas = []
    for _ in range(draws):
        pick = rng.integers(0, units, units)
        alphas.append(alpha_from_codes(codes[:, pick], values, weight[pick], level))
    defined = [a for a in alphas if a is not None]
    return float(np.mean(defined)) if defined else None


def fk_alpha(data, level):
    import krippendorff  # fast-krippendorff, from PYTHONPATH

    return float(krippendorff.alpha(reliability_data=data, level_of_measurement=level))


def main():
    datasets = {}
    for line in sys.stdin:
        job = json.loads(line)
        if job["op"] == "load":
            raw = np.fromfile(job["path"], dtype=np.float64)
            datasets[job["name"]] = raw.reshape(job["raters"], job["units"])
            answer = {"ok": True}
        elif job["op"] == "probe":
            try:
                import krippendorff  # noqa: F401

                answer = {"fk": True}
            except ImportError:
                answer = {"fk": False}
        else:
            data = datasets[job["name"]]
            level = job["level"]
            ref = job["ref"]
            t0 = time.process_time()
            if ref == "fk":
                alpha = fk_alpha(data, level)
            elif ref == "numpy":
                alpha = numpy_alpha(data, level)
            else:
                alpha = numpy_bootstrap(data, level, job["draws"], job["seed"])
            answer = {"seconds": time.process_time() - t0, "alpha": alpha}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()

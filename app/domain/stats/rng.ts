/**
 * Seeded pseudo-random numbers for reproducible resampling (bootstrap, benchmarks).
 * mulberry32: 32-bit state, fast, good enough statistical quality for resampling; not cryptographic.
 */

/** Returns a generator of floats in [0, 1) fully determined by `seed` (an integer; taken modulo 2^32). */
export function createRng(seed: number): () => number {
  if (!Number.isInteger(seed)) throw new Error(`createRng: seed must be an integer, got ${seed}`);
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A uniform integer in [0, n). With 32 bits of randomness the bias is at most n / 2^32,
 * negligible for the sample sizes used here.
 */
export function randomInt(rng: () => number, n: number): number {
  if (!(n >= 1) || !Number.isInteger(n)) throw new Error(`randomInt: n must be a positive integer, got ${n}`);
  return Math.floor(rng() * n);
}

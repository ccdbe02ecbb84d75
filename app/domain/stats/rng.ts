/**
 * Seeded pseudo-random numbers for reproducible resampling (bootstrap, benchmarks).
 * mulberry32: 32-bit state, fast, good enough statistical quality for resampling; not cryptographic.
 */

/** Returns a generator of floats in [0, 1) fully determined by `seed` (an integer; taken modulo 2^32). */
export function createRng(seed: number): () => number {
  const stream = new UniformStream(seed);
  return () => stream.next();
}

const STEP = 0x6d2b79f5;

/** mulberry32's output for a state: a float in [0, 1). */
function mix(state: number): number {
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

/** The numbers of createRng(seed), with a bulk form for resampling loops. */
export class UniformStream {
  private state: number;

  constructor(seed: number) {
    if (!Number.isInteger(seed)) throw new Error(`createRng: seed must be an integer, got ${seed}`);
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + STEP) | 0;
    return mix(this.state);
  }

  /**
   * `times` picks of an index in [0, n), each adding one to counts[index] — or to
   * counts[groupOf[index]] when given: the indices Math.floor(next() · n) would give, with the state
   * in a local (about twice as fast in V8).
   */
  countPicks(counts: Int32Array, n: number, times: number, groupOf: Int32Array | null = null): void {
    this.state =
      groupOf === null ? pickLoop(this.state, counts, n, times) : groupPickLoop(this.state, counts, n, times, groupOf);
  }
}

/**
 * countPicks' loop from `state`, returning the state after it. A plain function of numbers and
 * typed arrays: with the loop inside the method, V8's code compiled mid-loop deoptimised at the
 * store to this.state after it on every call. Eight picks a turn: V8 does not unroll loops, and
 * a turn's own overhead kept picks from overlapping (eight a turn took 0.6 of the time, sixteen
 * more than eight). The states s1..s8 are the next eight states, as one at a time.
 */
function pickLoop(state: number, counts: Int32Array, n: number, times: number): number {
  let i = 0;
  for (; i + 8 <= times; i += 8) {
    const s1 = (state + STEP) | 0;
    const s2 = (s1 + STEP) | 0;
    const s3 = (s2 + STEP) | 0;
    const s4 = (s3 + STEP) | 0;
    const s5 = (s4 + STEP) | 0;
    const s6 = (s5 + STEP) | 0;
    const s7 = (s6 + STEP) | 0;
    const s8 = (s7 + STEP) | 0;
    state = s8;
    counts[Math.floor(mix(s1) * n)]++;
    counts[Math.floor(mix(s2) * n)]++;
    counts[Math.floor(mix(s3) * n)]++;
    counts[Math.floor(mix(s4) * n)]++;
    counts[Math.floor(mix(s5) * n)]++;
    counts[Math.floor(mix(s6) * n)]++;
    counts[Math.floor(mix(s7) * n)]++;
    counts[Math.floor(mix(s8) * n)]++;
  }
  for (; i < times; i++) {
    state = (state + STEP) | 0;
    counts[Math.floor(mix(state) * n)]++;
  }
  return state;
}

/**
 * pickLoop counting each pick at counts[groupOf[index]]. A loop of its own: an identity groupOf would cost every
 * plain draw an extra load per pick.
 */
function groupPickLoop(state: number, counts: Int32Array, n: number, times: number, groupOf: Int32Array): number {
  let i = 0;
  for (; i + 8 <= times; i += 8) {
    const s1 = (state + STEP) | 0;
    const s2 = (s1 + STEP) | 0;
    const s3 = (s2 + STEP) | 0;
    const s4 = (s3 + STEP) | 0;
    const s5 = (s4 + STEP) | 0;
    const s6 = (s5 + STEP) | 0;
    const s7 = (s6 + STEP) | 0;
    const s8 = (s7 + STEP) | 0;
    state = s8;
    counts[groupOf[Math.floor(mix(s1) * n)]]++;
    counts[groupOf[Math.floor(mix(s2) * n)]]++;
    counts[groupOf[Math.floor(mix(s3) * n)]]++;
    counts[groupOf[Math.floor(mix(s4) * n)]]++;
    counts[groupOf[Math.floor(mix(s5) * n)]]++;
    counts[groupOf[Math.floor(mix(s6) * n)]]++;
    counts[groupOf[Math.floor(mix(s7) * n)]]++;
    counts[groupOf[Math.floor(mix(s8) * n)]]++;
  }
  for (; i < times; i++) {
    state = (state + STEP) | 0;
    counts[groupOf[Math.floor(mix(state) * n)]]++;
  }
  return state;
}

/**
 * A uniform integer in [0, n). With 32 bits of randomness the bias is at most n / 2^32,
 * negligible for the sample sizes used here.
 */
export function randomInt(rng: () => number, n: number): number {
  if (!(n >= 1) || !Number.isInteger(n)) throw new Error(`randomInt: n must be a positive integer, got ${n}`);
  return Math.floor(rng() * n);
}

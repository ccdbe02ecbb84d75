/** The routing rules of a replica pool, on a hand-driven clock: weights, limits, taking out, probing back. */
import { describe, expect, it } from "vitest";
import { ReplicaPool, type HealthPolicy } from "../../../app/domain/llm/replica-pool.ts";

const policy: HealthPolicy = { failures: 3, backoffMs: 100, maxBackoffMs: 400 };

function clock() {
  let t = 1_000;
  return { now: () => t, advance: (ms: number) => void (t += ms) };
}

const counts = (picks: number[], n: number) => Array.from({ length: n }, (_, i) => picks.filter((p) => p === i).length);

describe("replica pool", () => {
  it("spreads calls by weight, one at a time and all at once", async () => {
    const pool = new ReplicaPool(
      [
        { concurrency: 100, weight: 3 },
        { concurrency: 100, weight: 1 },
      ],
      policy,
    );
    const oneByOne: number[] = [];
    for (let i = 0; i < 40; i++) {
      const r = await pool.acquire();
      oneByOne.push(r);
      pool.release(r);
    }
    expect(counts(oneByOne, 2)).toEqual([30, 10]);

    const held = await Promise.all(Array.from({ length: 40 }, () => pool.acquire()));
    expect(counts(held, 2)).toEqual([30, 10]);
  });

  it("never exceeds a replica's limit: the call waits for a slot", async () => {
    const pool = new ReplicaPool(
      [
        { concurrency: 1, weight: 1 },
        { concurrency: 2, weight: 1 },
      ],
      policy,
    );
    const first = await Promise.all([pool.acquire(), pool.acquire(), pool.acquire()]);
    expect(counts(first, 2)).toEqual([1, 2]);
    let waited: number | undefined;
    const fourth = pool.acquire().then((r) => (waited = r));
    await Promise.resolve();
    expect(waited).toBeUndefined();
    pool.release(first.indexOf(0));
    await fourth;
    expect(waited).toBe(0);
  });

  it("takes a replica out after consecutive failures and probes it back after a doubling, capped back-off", async () => {
    const time = clock();
    const answers: boolean[] = [];
    const probed: number[] = [];
    const pool = new ReplicaPool(
      [
        { concurrency: 10, weight: 1 },
        { concurrency: 10, weight: 1 },
      ],
      policy,
      {
        now: time.now,
        probe: async (i) => (probed.push(i), answers.shift() ?? false),
      },
    );
    for (let i = 0; i < 3; i++) pool.failed(1, "HTTP 503");
    expect(pool.status(1)).toMatchObject({ inRotation: false, lastError: "HTTP 503" });
    expect(pool.hasOther(new Set([0]))).toBe(false);

    const outFor = async (ms: number, probeSays: boolean) => {
      time.advance(ms - 1);
      pool.release(await pool.acquire()); // before the back-off ends: no probe
      const before = probed.length;
      time.advance(1);
      answers.push(probeSays);
      pool.release(await pool.acquire()); // starts the probe
      await new Promise((resolve) => setImmediate(resolve));
      return probed.length - before;
    };
    expect(await outFor(100, false)).toBe(1);
    expect(await outFor(200, false)).toBe(1);
    expect(await outFor(400, false)).toBe(1);
    expect(await outFor(400, true)).toBe(1); // capped at 400 ms, then back
    expect(pool.status(1).inRotation).toBe(true);
  });

  it("keeps a rate-limited replica aside for its Retry-After only", async () => {
    const time = clock();
    const pool = new ReplicaPool(
      [
        { concurrency: 10, weight: 1 },
        { concurrency: 10, weight: 1 },
      ],
      policy,
      { now: time.now, probe: async () => true },
    );
    pool.failed(0, "HTTP 429", 5_000);
    expect(pool.status(0).inRotation).toBe(false);
    expect(pool.status(1).inRotation).toBe(true);
    expect(await pool.acquire()).toBe(1);
    time.advance(5_000);
    expect(pool.status(0).inRotation).toBe(true);
  });

  it("with every replica out, a call still gets the one available soonest rather than waiting", async () => {
    const time = clock();
    const pool = new ReplicaPool(
      [
        { concurrency: 10, weight: 1 },
        { concurrency: 10, weight: 1 },
      ],
      policy,
      { now: time.now, probe: async () => false },
    );
    for (let i = 0; i < 3; i++) pool.failed(0, "HTTP 503");
    time.advance(10);
    for (let i = 0; i < 3; i++) pool.failed(1, "HTTP 503");
    expect(await pool.acquire()).toBe(0);
  });
});

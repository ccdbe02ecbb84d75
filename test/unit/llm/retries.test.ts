/** Retries over real HTTP against the mock server: Retry-After, 5xx bursts, resets, timeouts, non-retryable 4xx. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { llmCalls } from "../../../db/schema.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { mockConfig } from "../../../app/server/llm/stand-in/config.server.ts";
import { startMockLlm, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";

const schema = z.object({ answer: z.string() });
const ask = (text: string) => ({
  role: "party" as const,
  messages: [{ role: "user" as const, content: text }],
  schema,
});
const fastBackoff = { baseMs: 5, maxMs: 20 };

let mock: MockLlm;
let store: Awaited<ReturnType<typeof tempDb>>;

beforeEach(async () => {
  mock = await startMockLlm({ respond: () => ({ answer: "fine" }) });
  store = await tempDb();
});
afterEach(async () => {
  await mock.close();
  store.cleanup();
});

describe("retries", () => {
  it("waits exactly the Retry-After seconds after a 429, then succeeds", async () => {
    mock.setFaults([{ fault: { kind: "429", retryAfterSeconds: 1 } }]);
    const waits: number[] = [];
    const sleep = (ms: number) => {
      waits.push(ms);
      return new Promise<void>((resolve) => setTimeout(resolve, ms));
    };
    const llm = createLlm({
      db: store.db,
      config: mockConfig(mock.url),
      sleep,
      random: () => 0.5,
      backoff: fastBackoff,
    });

    const result = await llm.call(ask("rate limit me"));

    expect(result).toMatchObject({ ok: true, value: { answer: "fine" }, cached: false });
    expect(mock.requests.map((r) => r.status)).toEqual([429, 200]);
    expect(waits).toEqual([1000]); // the header, not the jittered backoff (which would be ≤ 5 ms here)
    // Measured on the server: the retry arrived at least a second after the 429 went out.
    // (1 ms slack: Node timers work at millisecond resolution.)
    const gap = mock.requests[1].receivedAt - mock.requests[0].respondedAt!;
    expect(gap).toBeGreaterThanOrEqual(999);
    expect((await store.db.select().from(llmCalls).limit(1))[0]).toMatchObject({ status: "ok", attempts: 2 });
  });

  it("honours retry-after-ms", async () => {
    const waits: number[] = [];
    const llm = createLlm({
      db: store.db,
      config: mockConfig(mock.url),
      sleep: async (ms) => void waits.push(ms),
      random: () => 0.5,
      backoff: fastBackoff,
    });
    mock.setFaults([{ fault: { kind: "429", retryAfterMs: 250 } }]);
    expect((await llm.call(ask("ms header"))).ok).toBe(true);
    expect(waits).toEqual([250]);
  });

  it("gives up at once when Retry-After asks for more than two minutes", async () => {
    mock.setFaults([{ fault: { kind: "429", retryAfterSeconds: 3600 } }]);
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url), backoff: fastBackoff });
    const result = await llm.call(ask("come back in an hour"));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain("HTTP 429 (mock-llm: rate limited) from");
    if (!result.ok) expect(result.error).toContain("the server asked to wait 3600 s, over the 120 s limit");
    expect(mock.requests).toHaveLength(1);
  });

  it("retries a burst of 500s with backoff and succeeds", async () => {
    mock.setFaults([{ fault: { kind: "5xx", status: 500 }, times: 3 }]);
    const waits: number[] = [];
    const llm = createLlm({
      db: store.db,
      config: mockConfig(mock.url),
      sleep: async (ms) => void waits.push(ms),
      random: () => 1,
      backoff: { baseMs: 100, maxMs: 250 },
    });

    const result = await llm.call(ask("flaky server"));

    expect(result.ok).toBe(true);
    expect(mock.requests.map((r) => r.status)).toEqual([500, 500, 500, 200]);
    expect(waits).toEqual([100, 200, 250]); // doubling ceilings, capped (random() = 1 shows the ceiling)
    expect((await store.db.select().from(llmCalls).limit(1))[0]).toMatchObject({ status: "ok", attempts: 4 });
  });

  it("gives up after maxRetries and records the failure with the status and endpoint", async () => {
    mock.setFaults([{ fault: { kind: "5xx", status: 503 }, times: 10 }]);
    const llm = createLlm({
      db: store.db,
      config: mockConfig(mock.url, { endpoint: { maxRetries: 2 } }),
      backoff: fastBackoff,
    });

    const result = await llm.call(ask("down"));

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toContain("HTTP 503");
    expect(result.error).toContain(mock.url);
    expect(result.error).toContain("gave up after 3 attempts");
    expect(mock.requests).toHaveLength(3);
    const row = (await store.db.select().from(llmCalls).limit(1))[0];
    expect(row).toMatchObject({ status: "failed", attempts: 3, response: null });
    expect(row?.error).toContain("HTTP 503");
  });

  it("does not retry a 400", async () => {
    mock.setFaults([{ fault: { kind: "status", status: 400, message: "unknown parameter" } }]);
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url), backoff: fastBackoff });

    const result = await llm.call(ask("bad request"));

    expect(result).toMatchObject({ ok: false, cached: false });
    if (!result.ok) expect(result.error).toMatch(/HTTP 400 \(unknown parameter\) from .*not retried/);
    expect(mock.requests).toHaveLength(1);
    expect((await store.db.select().from(llmCalls).limit(1))[0]).toMatchObject({ status: "failed", attempts: 1 });
  });

  it("retries after a connection reset and after a timeout", async () => {
    mock.setFaults([{ fault: { kind: "reset" } }, { fault: { kind: "slow", delayMs: 2000 }, fromRequest: 2 }]);
    const llm = createLlm({
      db: store.db,
      config: mockConfig(mock.url, { endpoint: { timeoutMs: 300 } }),
      backoff: fastBackoff,
    });

    const result = await llm.call(ask("unreliable network"));

    expect(result.ok).toBe(true);
    expect(mock.requests.map((r) => r.fault)).toEqual(["reset", "slow", undefined]);
    expect((await store.db.select().from(llmCalls).limit(1))[0]).toMatchObject({ status: "ok", attempts: 3 });
  });
});

/** The SQLite call cache, in-flight de-duplication, the per-endpoint concurrency limit and cost accounting. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { llmCalls } from "../../../db/schema.ts";
import { openDatabase } from "../../../app/server/db.server.ts";
import { createLlm, type LlmCallEvent } from "../../../app/server/llm/client.server.ts";
import { summariseUsage, UsageTally } from "../../../app/server/llm/usage.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { mockConfig } from "../../../app/server/llm/stand-in/config.server.ts";
import { startMockLlm, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";

const schema = z.object({ echo: z.string() });
const ask = (text: string, extra: Record<string, unknown> = {}) => ({
  role: "mediator" as const,
  messages: [{ role: "user" as const, content: text }],
  schema,
  ...extra,
});

let mock: MockLlm;
let store: Awaited<ReturnType<typeof tempDb>>;

beforeEach(async () => {
  mock = await startMockLlm({ latencyMs: { min: 20, max: 60 }, seed: 7 }); // default responder echoes the last message
  store = await tempDb();
});
afterEach(async () => {
  await mock.close();
  store.cleanup();
});

describe("cache", () => {
  it("the same call twice makes one HTTP request; the second is cached", async () => {
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url) });
    const first = await llm.call(ask("hello"));
    const second = await llm.call(ask("hello"));

    expect(first).toMatchObject({ ok: true, cached: false, value: { echo: "hello" } });
    expect(second).toMatchObject({ ok: true, cached: true, value: { echo: "hello" } });
    expect(second.usage).toEqual(first.usage); // what the stored reply cost
    expect(mock.requests).toHaveLength(1);
  });

  it("a different temperature, seed or model is a different request", async () => {
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url) });
    await llm.call(ask("hello"));
    await llm.call(ask("hello", { temperature: 0.7 }));
    await llm.call(ask("hello", { seed: 3 }));
    await llm.call(ask("hello", { model: "other-model" }));
    expect(mock.requests).toHaveLength(4);
    expect(mock.requests.map((r) => (r.body as { model: string }).model)).toEqual([
      "mock-model",
      "mock-model",
      "mock-model",
      "other-model",
    ]);
    expect((mock.requests[2].body as { seed: number }).seed).toBe(3);
  });

  it("a new client on the same database file (a restarted process) hits the cache", async () => {
    await createLlm({ db: store.db, config: mockConfig(mock.url) }).call(ask("remember me"));
    const reopened = await openDatabase(store.path);
    try {
      const result = await createLlm({ db: reopened, config: mockConfig(mock.url) }).call(ask("remember me"));
      expect(result).toMatchObject({ ok: true, cached: true, value: { echo: "remember me" } });
      expect(mock.requests).toHaveLength(1);
    } finally {
      reopened.$client.close();
    }
  });

  it("a cached reply that fails a stricter schema is asked for again", async () => {
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url) });
    await llm.call(ask("hi"));
    const stricter = await llm.call({ ...ask("hi"), schema: z.object({ echo: z.string().min(5) }) });
    expect(stricter.cached).toBe(false);
    expect(mock.requests.length).toBeGreaterThan(1);
  });

  it("concurrent identical calls make one HTTP request", async () => {
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url) });
    const results = await Promise.all(Array.from({ length: 5 }, () => llm.call(ask("same"))));

    expect(mock.requests).toHaveLength(1);
    expect(results.every((r) => r.ok && r.value.echo === "same")).toBe(true);
    expect(results.filter((r) => !r.cached)).toHaveLength(1);
  });

  it("concurrent identical calls share a failure too, without extra requests", async () => {
    mock.setFaults([{ fault: { kind: "status", status: 400 } }]);
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url) });
    const results = await Promise.all(Array.from({ length: 3 }, () => llm.call(ask("doomed"))));
    expect(results.map((r) => r.ok)).toEqual([false, false, false]);
    expect(mock.requests).toHaveLength(1);
  });

  it("keeps at most `concurrency` requests in flight per endpoint", async () => {
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url, { endpoint: { concurrency: 3 } }) });
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => llm.call(ask(`question ${i}`))));

    expect(results.every((r) => r.ok)).toBe(true);
    expect(mock.requests).toHaveLength(12);
    expect(mock.maxInFlight()).toBe(3); // reached, never exceeded
  });
});

describe("accounting", () => {
  it("costs tokens at the configured prices and sums them per role and subject", async () => {
    const prices = { "mock-model": { inputPerMillion: 2, outputPerMillion: 10 } };
    const events: LlmCallEvent[] = [];
    const tally = new UsageTally();
    const llm = createLlm({
      db: store.db,
      config: mockConfig(mock.url, { prices }),
      onCall: (e) => {
        events.push(e);
        tally.record(e);
      },
    });

    const a = await llm.call(ask("x".repeat(400), { subject: "run-a" }));
    await llm.call(ask("x".repeat(400), { subject: "run-a" })); // cached
    await llm.call({ ...ask("y".repeat(80), { subject: "run-b" }), role: "evaluator" as const });
    await llm.call({ ...ask("z".repeat(40), { subject: "run-a" }), model: "unpriced" });

    // The mock counts 4 characters a token (rounded up): 400 characters of prompt are 100 tokens; the
    // reply {"echo":"x…x"} is 411 characters, 103 tokens.
    expect(a.usage).toEqual({ promptTokens: 100, completionTokens: 103, costUsd: (100 * 2 + 103 * 10) / 1e6 });

    const all = await summariseUsage(store.db);
    expect(all.map((r) => r.role)).toEqual(["evaluator", "mediator"]);
    const mediator = all.find((r) => r.role === "mediator")!;
    expect(mediator).toMatchObject({
      calls: 2,
      ok: 2,
      failed: 0,
      attempts: 2,
      promptTokens: 110,
      completionTokens: 103 + 13,
    });
    expect(mediator.costUsd).toBeCloseTo((100 * 2 + 103 * 10) / 1e6, 12); // the unpriced model costs nothing

    const runB = await summariseUsage(store.db, { subject: "run-b" });
    expect(runB).toEqual([
      {
        role: "evaluator",
        calls: 1,
        ok: 1,
        failed: 0,
        attempts: 1,
        promptTokens: 20,
        completionTokens: 23,
        costUsd: (20 * 2 + 23 * 10) / 1e6,
      },
    ]);

    expect(events.map((e) => e.cached)).toEqual([false, true, false, false]);
    expect(tally.rows().find((r) => r.role === "mediator")).toMatchObject({
      calls: 3,
      cachedHits: 1,
      promptTokens: 110,
    });
    expect(await store.db.select().from(llmCalls)).toHaveLength(3);
  });
});

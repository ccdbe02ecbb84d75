/**
 * The in-process memory of ok replies in front of the llm_calls lookup: a reply from memory is
 * still validated against the caller's schema, a failed call is never remembered, and the rows
 * stay the cache of record (a new client on the same database finds them).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { openDatabase } from "../../../app/server/db.server.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { replyMemory } from "../../../app/server/llm/reply-memory.server.ts";
import { recordCall } from "../../../app/server/models/llm-call.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { mockConfig } from "../../../app/server/llm/stand-in/config.server.ts";
import { startMockLlm, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";

const schema = z.object({ echo: z.string() });
const ask = (text: string) => ({
  role: "mediator" as const,
  messages: [{ role: "user" as const, content: text }],
  schema,
});

let mock: MockLlm;
let store: Awaited<ReturnType<typeof tempDb>>;

beforeEach(async () => {
  mock = await startMockLlm({ latencyMs: { min: 5, max: 10 }, seed: 3 }); // echoes the last message
  store = await tempDb();
});
afterEach(async () => {
  await mock.close();
  store.cleanup();
});

describe("reply memory", () => {
  it("a remembered reply is validated against each caller's schema", async () => {
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url) });
    await llm.call(ask("hi"));
    // read from the row, now remembered
    expect(await llm.call(ask("hi"))).toMatchObject({ ok: true, cached: true, value: { echo: "hi" } });
    const stricter = await llm.call({ ...ask("hi"), schema: z.object({ echo: z.string().min(5) }) });
    expect(stricter.cached).toBe(false); // the remembered "hi" fails min(5): asked again
    expect(mock.requests.length).toBeGreaterThan(1);
  });

  it("a failed call is not remembered: the next identical call goes to the endpoint", async () => {
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url, { endpoint: { maxRetries: 0 } }) });
    mock.setFaults([{ fault: { kind: "status", status: 400, message: "no" } }]);
    expect(await llm.call(ask("once"))).toMatchObject({ ok: false, cached: false });
    expect(await llm.call(ask("once"))).toMatchObject({ ok: true, cached: false, value: { echo: "once" } });
    expect(await llm.call(ask("once"))).toMatchObject({ ok: true, cached: true });
    expect(mock.requests).toHaveLength(2);
  });

  it("keeps only ok rows read from the database, and forgets a key whose outcome is recorded again", async () => {
    const memory = replyMemory(store.db, 2);
    const row = {
      role: "mediator",
      baseUrl: "http://mock/v1",
      model: "m",
      request: {},
      response: '{"echo":"a"}',
      status: "ok",
      latencyMs: 12,
    };
    await recordCall(store.db, { ...row, cacheKey: "failed", status: "failed", response: null, error: "timeout" });
    expect(await memory.find("failed")).toBeUndefined();
    expect(memory.size).toBe(0);
    for (const key of ["a", "b", "c"]) await recordCall(store.db, { ...row, cacheKey: key });
    expect(await memory.find("a")).toMatchObject({ response: '{"echo":"a"}', latencyMs: 12 });
    await memory.find("b");
    await memory.find("c");
    expect(memory.size).toBe(2); // the oldest went first
    await recordCall(store.db, { ...row, cacheKey: "c", status: "failed", response: null, error: "timeout" });
    memory.forget("c");
    expect(await memory.find("c")).toBeUndefined();
  });

  it("a new client on the same database, and a reopened one, find the rows", async () => {
    await createLlm({ db: store.db, config: mockConfig(mock.url) }).call(ask("kept"));
    expect(await createLlm({ db: store.db, config: mockConfig(mock.url) }).call(ask("kept"))).toMatchObject({
      ok: true,
      cached: true,
      value: { echo: "kept" },
    });
    const reopened = await openDatabase(store.path);
    try {
      expect(await createLlm({ db: reopened, config: mockConfig(mock.url) }).call(ask("kept"))).toMatchObject({
        ok: true,
        cached: true,
      });
    } finally {
      reopened.$client.close();
    }
    expect(mock.requests).toHaveLength(1);
  });
});

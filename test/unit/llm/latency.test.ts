/**
 * `LlmResult.latencyMs`: a new call reports the latency recorded in llm_calls.latency_ms; a cache
 * hit reports that stored latency again (the original call's), not the ~0 ms of the lookup.
 */
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { llmCalls } from "../../../db/schema.ts";
import { openDatabase } from "../../../app/server/db.server.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { mockConfig } from "../../../app/server/llm/stand-in/config.server.ts";
import { startMockLlm, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";

const ask = (text: string) => ({
  role: "mediator" as const,
  messages: [{ role: "user" as const, content: text }],
  schema: z.object({ echo: z.string() }),
  subject: text,
});

let mock: MockLlm;
let store: Awaited<ReturnType<typeof tempDb>>;
beforeEach(async () => {
  mock = await startMockLlm({ latencyMs: 50 }); // the default responder echoes the last message
  store = await tempDb();
});
afterEach(async () => {
  await mock.close();
  store.cleanup();
});

const storedLatency = async (db: Awaited<ReturnType<typeof openDatabase>>, subject: string) =>
  (await db.select().from(llmCalls).where(eq(llmCalls.subject, subject)).limit(1))[0]!.latencyMs;

describe("LlmResult.latencyMs", () => {
  it("is the recorded latency of a new call, and the same stored latency on a cache hit from a fresh client", async () => {
    const first = await createLlm({ db: store.db, config: mockConfig(mock.url) }).call(ask("how long"));
    expect(first).toMatchObject({ ok: true, cached: false });
    const recorded = await storedLatency(store.db, "how long");
    expect(first.latencyMs).toBe(recorded);
    // The stand-in waits 50 ms before it answers.
    expect(recorded).toBeGreaterThanOrEqual(40);

    const reopened = await openDatabase(store.path);
    try {
      const again = await createLlm({ db: reopened, config: mockConfig(mock.url) }).call(ask("how long"));
      expect(again).toMatchObject({ ok: true, cached: true });
      expect(again.latencyMs).toBe(recorded);
      expect(mock.requests).toHaveLength(1);
    } finally {
      reopened.$client.close();
    }
  });

  it("sums the steps of a tool loop, live and replayed", async () => {
    await mock.close();
    // One tool call, then the answer once the tool's result is in the transcript.
    mock = await startMockLlm({
      latencyMs: 50,
      respond: (request) =>
        request.messages.some((m) => m.role === "tool")
          ? { echo: "done" }
          : { toolCalls: [{ name: "look", arguments: {} }] },
    });
    const request = {
      ...ask("loop"),
      tools: [{ name: "look", description: "looks", parameters: { type: "object", properties: {} } }],
      runTool: async () => "seen",
    };
    const live = await createLlm({ db: store.db, config: mockConfig(mock.url) }).callWithTools(request);
    expect(live).toMatchObject({ ok: true, cached: false, value: { echo: "done" } });
    const rows = await store.db.select().from(llmCalls).where(eq(llmCalls.subject, "loop"));
    expect(rows).toHaveLength(2);
    expect(live.latencyMs).toBe(rows[0].latencyMs + rows[1].latencyMs);
    const replayed = await createLlm({ db: store.db, config: mockConfig(mock.url) }).callWithTools(request);
    expect(replayed).toMatchObject({ ok: true, cached: true });
    expect(replayed.latencyMs).toBe(live.latencyMs);
  });
});

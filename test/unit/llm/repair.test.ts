/** Invalid replies over real HTTP: one repair round that shows the model its error, then a recorded failure. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { llmCalls } from "../../../db/schema.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { mockConfig } from "../../../app/server/llm/stand-in/config.server.ts";
import { scripted, startMockLlm, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";

const schema = z.object({ topic: z.string(), score: z.number().int().min(1).max(5) });
const ask = (text: string) => ({
  role: "evaluator" as const,
  messages: [{ role: "user" as const, content: text }],
  schema,
  subject: "run-1",
});

let mock: MockLlm;
let store: Awaited<ReturnType<typeof tempDb>>;

beforeEach(async () => {
  mock = await startMockLlm({
    respond: scripted([
      // The repair request ends with our correction message; answer it properly.
      { match: /corrected reply/, reply: { topic: "DATE", score: 4 } },
      { match: /out of range/, reply: { topic: "DATE", score: 9 } },
      { match: /.*/, reply: { topic: "DATE", score: 3 } },
    ]),
  });
  store = await tempDb();
});
afterEach(async () => {
  await mock.close();
  store.cleanup();
});

const lastMessage = (i: number) => {
  const body = mock.requests[i].body as { messages: { role: string; content: string }[] };
  return body.messages;
};

describe("reply repair", () => {
  it("repairs malformed JSON once, telling the model what was wrong", async () => {
    mock.setFaults([{ fault: { kind: "malformed" } }]);
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url) });

    const result = await llm.call(ask("score the dialogue"));

    expect(result).toMatchObject({ ok: true, value: { topic: "DATE", score: 4 } });
    expect(mock.requests).toHaveLength(2);
    const repair = lastMessage(1);
    expect(repair).toHaveLength(3);
    expect(repair[1].role).toBe("assistant");
    expect(repair[1].content).toContain("Here is my answer"); // the bad reply, shown back
    expect(repair[2].role).toBe("user");
    expect(repair[2].content).toContain("$: the reply is not valid JSON");
    const row = (await store.db.select().from(llmCalls).limit(1))[0];
    expect(row).toMatchObject({ status: "ok", attempts: 2, parsed: { topic: "DATE", score: 4 }, subject: "run-1" });
  });

  it("names the JSON path of a schema violation in the repair message", async () => {
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url) });

    const result = await llm.call(ask("a score out of range"));

    expect(result).toMatchObject({ ok: true, value: { score: 4 } });
    expect(lastMessage(1)[2].content).toMatch(/\$\.score: Number must be less than or equal to 5/);
  });

  it("a second malformed reply yields ok:false, recorded as failed, without throwing", async () => {
    mock.setFaults([{ fault: { kind: "malformed" }, times: 2 }]);
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url) });

    const result = await llm.call(ask("score the dialogue"));

    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^invalid reply after one repair: \$: the reply is not valid JSON/);
    expect(mock.requests).toHaveLength(2); // exactly one repair
    const row = (await store.db.select().from(llmCalls).limit(1))[0];
    expect(row).toMatchObject({ status: "failed", attempts: 2, parsed: null });
    expect(row?.response).toContain("Here is my answer");
    expect(row?.promptTokens).toBeGreaterThan(0); // both replies were paid for
  });

  it("truncated JSON: repaired once, and a failure when it stays truncated", async () => {
    mock.setFaults([{ fault: { kind: "truncated" } }]);
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url) });
    expect(await llm.call(ask("first question"))).toMatchObject({ ok: true, value: { score: 4 } });
    expect(lastMessage(1)[2].content).toContain("not valid JSON");

    mock.setFaults([{ fault: { kind: "truncated" }, times: 2 }]);
    const second = await llm.call(ask("second question"));
    expect(second.ok).toBe(false);
    expect(mock.requests).toHaveLength(4);
    const failed = (await store.db.select().from(llmCalls)).filter((r) => r.status === "failed");
    expect(failed).toHaveLength(1);
    expect(failed[0].error).toContain("invalid reply after one repair");
  });

  it("accepts a reply wrapped in a ```json fence", async () => {
    await mock.close();
    mock = await startMockLlm({ respond: () => 'Sure.\n```json\n{"topic": "PRICE", "score": 2}\n```' });
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url) });
    expect(await llm.call(ask("fenced"))).toMatchObject({ ok: true, value: { topic: "PRICE", score: 2 } });
    expect(mock.requests).toHaveLength(1);
  });

  it("a failed call is tried again on a later run, and the success replaces the failure", async () => {
    mock.setFaults([{ fault: { kind: "malformed" }, times: 2 }]);
    const first = await createLlm({ db: store.db, config: mockConfig(mock.url) }).call(ask("score the dialogue"));
    expect(first.ok).toBe(false);

    const again = await createLlm({ db: store.db, config: mockConfig(mock.url) }).call(ask("score the dialogue"));

    expect(again).toMatchObject({ ok: true, cached: false, value: { score: 3 } });
    const rows = await store.db.select().from(llmCalls);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "ok", error: null, attempts: 3 }); // 2 failed + 1 ok, all counted
  });
});

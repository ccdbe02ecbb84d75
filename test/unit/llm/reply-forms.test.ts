/** Replies as real providers send them, over real HTTP: prose, <think>, structured outputs and their refusal. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { llmCalls } from "../../../db/schema.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { mockConfig } from "../../../app/server/llm/stand-in/config.server.ts";
import { startMockLlm, type MockLlm } from "../../../app/server/llm/stand-in/endpoint.server.ts";

const schema = z.object({ echo: z.string() });
const ask = (text: string, extra: Record<string, unknown> = {}) => ({
  role: "writer" as const,
  messages: [{ role: "user" as const, content: text }],
  schema,
  ...extra,
});

let mock: MockLlm;
let store: Awaited<ReturnType<typeof tempDb>>;

beforeEach(async () => {
  mock = await startMockLlm(); // echoes the last message as {"echo": …}
  store = await tempDb();
});
afterEach(async () => {
  await mock.close();
  store.cleanup();
});

const rows = async () => await store.db.select().from(llmCalls);
type Body = {
  response_format?: { type: string; json_schema?: { name: string; strict: boolean; schema: { properties: object } } };
};
const bodyOf = (i: number) => mock.requests[i].body as Body;

/** A configuration whose writer role asks for structured output. */
const structuredConfig = (url: string) => mockConfig(url, { roles: { writer: { structuredOutput: true } } });

describe("reply forms over HTTP", () => {
  it("a reply wrapped in prose twice in a row loses no run: both calls succeed without a repair", async () => {
    mock.setFaults([{ fault: { kind: "prose" }, times: 2 }]);
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url) });

    const first = await llm.call(ask("first"));
    const second = await llm.call(ask("second"));

    expect(first).toMatchObject({ ok: true, value: { echo: "first" } });
    expect(second).toMatchObject({ ok: true, value: { echo: "second" } });
    expect(mock.requests.map((r) => r.fault)).toEqual(["prose", "prose"]); // no repair request
    expect((await rows()).map((r) => [r.status, r.replyForm, r.attempts])).toEqual([
      ["ok", "prose", 1],
      ["ok", "prose", 1],
    ]);
  });

  it("a <think> block with braces before the answer is skipped and recorded as such; a cache hit reads it again", async () => {
    mock.setFaults([{ fault: { kind: "think" } }]);
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url) });

    expect(await llm.call(ask("reasoning model"))).toMatchObject({ ok: true, value: { echo: "reasoning model" } });
    expect((await rows())[0]).toMatchObject({ status: "ok", replyForm: "think" });
    expect((await rows())[0].response).toMatch(/^<think>/);
    expect(await llm.call(ask("reasoning model"))).toMatchObject({
      ok: true,
      cached: true,
      value: { echo: "reasoning model" },
    });
    expect(mock.requests).toHaveLength(1);
  });

  it("a plain JSON reply is recorded as json", async () => {
    const llm = createLlm({ db: store.db, config: mockConfig(mock.url) });
    await llm.call(ask("plain"));
    expect((await rows())[0].replyForm).toBe("json");
  });
});

describe("structured outputs", () => {
  it("where the role is configured, the request carries the schema as a JSON schema and the reply is recorded as structured", async () => {
    const llm = createLlm({ db: store.db, config: structuredConfig(mock.url) });

    expect(await llm.call(ask("structured"))).toMatchObject({ ok: true, value: { echo: "structured" } });

    const format = bodyOf(0).response_format!;
    expect(format.type).toBe("json_schema");
    expect(format.json_schema).toMatchObject({
      name: "reply",
      strict: true,
      schema: { properties: { echo: { type: "string" } } },
    });
    expect(mock.requests[0].responseFormat).toBe("json_schema");
    const row = (await rows())[0];
    expect(row.replyForm).toBe("structured");
    expect(row.request).toMatchObject({ structuredOutput: "sent", response_format: { type: "json_schema" } });
  });

  it("is off by default (JSON mode), and a request can turn it on or off; it is part of the cache key", async () => {
    const plain = createLlm({ db: store.db, config: mockConfig(mock.url) });
    await plain.call(ask("same"));
    await plain.call(ask("same", { structured: true }));
    const configured = createLlm({ db: store.db, config: structuredConfig(mock.url) });
    await configured.call(ask("other", { structured: false }));

    expect(mock.requests.map((r) => r.responseFormat)).toEqual(["json_object", "json_schema", "json_object"]);
  });

  it("a refusal is retried at once without the schema, recorded, and remembered for the endpoint and model", async () => {
    mock.setFaults([{ fault: { kind: "refuse-structured" }, times: 5 }]);
    const llm = createLlm({ db: store.db, config: structuredConfig(mock.url) });

    expect(await llm.call(ask("one"))).toMatchObject({ ok: true, value: { echo: "one" } });
    expect(await llm.call(ask("two"))).toMatchObject({ ok: true, value: { echo: "two" } });

    expect(mock.requests.map((r) => [r.responseFormat, r.status])).toEqual([
      ["json_schema", 400],
      ["json_object", 200],
      ["json_object", 200], // remembered: no second refusal
    ]);
    const recorded = async (echo: string) => (await rows()).find((r) => (r.parsed as { echo: string }).echo === echo)!;
    // The refused request counts as an attempt of the call it belongs to.
    expect(await recorded("one")).toMatchObject({
      attempts: 2,
      replyForm: "json",
      request: { structuredOutput: "refused" },
    });
    expect(await recorded("two")).toMatchObject({
      attempts: 1,
      replyForm: "json",
      request: { structuredOutput: "refused" },
    });
  });

  it("a schema strict mode cannot express is sent as JSON mode, with the reason recorded", async () => {
    const llm = createLlm({ db: store.db, config: structuredConfig(mock.url) });
    const loose = z.object({ echo: z.string(), note: z.string().optional() });

    expect(await llm.call({ ...ask("loose"), schema: loose })).toMatchObject({ ok: true, value: { echo: "loose" } });

    expect(mock.requests[0].responseFormat).toBe("json_object");
    expect(((await rows())[0].request as { structuredOutput: string }).structuredOutput).toMatch(
      /^unusable schema: .*optional/,
    );
  });
});

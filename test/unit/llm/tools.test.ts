/** Llm.callWithTools and Llm.webResearch over real HTTP against the stand-in. */
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { llmCalls } from "../../../db/schema.ts";
import { createLlm } from "../../../app/server/llm/client.server.ts";
import { tempDb } from "../../../harness/temp-db.ts";
import { mockConfig } from "../../../app/server/llm/stand-in/config.server.ts";
import {
  startMockLlm,
  type MockChatRequest,
  type MockLlm,
  type MockLlmOptions,
} from "../../../app/server/llm/stand-in/endpoint.server.ts";
import type { ToolSpec } from "../../../app/domain/llm/types.ts";

const schema = z.object({ title: z.string(), sources: z.array(z.string()) });
const searchTool: ToolSpec = {
  name: "web_search",
  description: "Search the web",
  parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
};

/** Searches until it has two results, then answers with what the tools returned. */
function searcher(request: MockChatRequest): object {
  const results = request.messages.filter((m) => m.role === "tool").map((m) => m.content);
  if (results.length < 2 && request.tools.includes("web_search"))
    return { toolCalls: [{ name: "web_search", arguments: { query: `dispute ${results.length + 1}` } }] };
  return { title: "Found", sources: results };
}

let mock: MockLlm;
let store: Awaited<ReturnType<typeof tempDb>>;
async function setup(options: MockLlmOptions) {
  mock = await startMockLlm(options);
  store = await tempDb();
  return createLlm({ db: store.db, config: mockConfig(mock.url), sleep: async () => {} });
}
afterEach(async () => {
  await mock.close();
  store.cleanup();
});

const ask = {
  role: "searcher" as const,
  messages: [{ role: "user" as const, content: "find a dispute" }],
  schema,
  subject: "curation",
};
const rows = async () => await store.db.select().from(llmCalls);

describe("callWithTools", () => {
  it("runs the tools the model calls, shows it their results, parses its final answer; each step is recorded", async () => {
    const llm = await setup({ respond: searcher });
    const calls: [string, Record<string, unknown>][] = [];
    const runTool = async (name: string, args: Record<string, unknown>) => {
      calls.push([name, args]);
      return `result for ${String(args.query)}`;
    };

    const result = await llm.callWithTools({ ...ask, tools: [searchTool], runTool });

    expect(result).toMatchObject({
      ok: true,
      cached: false,
      value: { title: "Found", sources: ["result for dispute 1", "result for dispute 2"] },
    });
    expect(calls).toEqual([
      ["web_search", { query: "dispute 1" }],
      ["web_search", { query: "dispute 2" }],
    ]);
    expect(mock.requests).toHaveLength(3);
    const third = mock.requests[2].body as { messages: { role: string; tool_call_id?: string }[]; tools: unknown[] };
    expect(third.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "assistant", "tool"]);
    expect(third.tools).toEqual([
      {
        type: "function",
        function: { name: "web_search", description: "Search the web", parameters: searchTool.parameters },
      },
    ]);
    expect((await rows()).map((r) => [r.status, r.replyForm, r.subject])).toEqual([
      ["ok", null, "curation"],
      ["ok", null, "curation"],
      ["ok", "json", "curation"],
    ]);
    expect(result.usage.promptTokens).toBe((await rows()).reduce((n, r) => n + r.promptTokens, 0));
  });

  it("a rerun (a new process on the same database) pays for no step again", async () => {
    const llm = await setup({ respond: searcher });
    const runTool = async (_: string, args: Record<string, unknown>) => `result for ${String(args.query)}`;
    const first = await llm.callWithTools({ ...ask, tools: [searchTool], runTool });

    const again = await createLlm({ db: store.db, config: mockConfig(mock.url) }).callWithTools({
      ...ask,
      tools: [searchTool],
      runTool,
    });

    expect(again).toMatchObject({ ok: true, cached: true, value: first.ok ? first.value : {} });
    expect(mock.requests).toHaveLength(3);
  });

  it("the last step offers no tools, so a model that keeps searching must answer", async () => {
    const llm = await setup({
      respond: (r) =>
        r.tools.length > 0
          ? { toolCalls: [{ name: "web_search", arguments: "{}" }] }
          : { title: "Forced", sources: [] },
    });

    const result = await llm.callWithTools({
      ...ask,
      tools: [searchTool],
      runTool: async () => "nothing",
      maxSteps: 2,
    });

    expect(result).toMatchObject({ ok: true, value: { title: "Forced" } });
    expect(mock.requests.map((r) => "tools" in (r.body as object))).toEqual([true, false]);
  });

  it("tool problems go to the model as the tool's result: an unknown tool, bad arguments, a thrown error", async () => {
    const llm = await setup({
      respond: (r) =>
        r.messages.some((m) => m.role === "tool")
          ? { title: "Done", sources: r.messages.filter((m) => m.role === "tool").map((m) => m.content) }
          : {
              toolCalls: [
                { name: "nope", arguments: "{}" },
                { name: "web_search", arguments: "{not json" },
                { name: "web_search", arguments: { query: "x" } },
              ],
            },
    });

    const result = await llm.callWithTools({
      ...ask,
      tools: [searchTool],
      runTool: async () => Promise.reject(new Error("backend down")),
    });

    expect(result).toMatchObject({
      ok: true,
      value: {
        sources: [
          'error: there is no tool named "nope"',
          "error: the arguments are not valid JSON",
          "error: backend down",
        ],
      },
    });
  });

  it("a failed step is recorded and returned, never thrown; the next run retries only that step", async () => {
    const llm = await setup({ respond: searcher, faults: [{ fault: { kind: "5xx" }, fromRequest: 2, times: 10 }] });
    const runTool = async () => "r";

    const result = await llm.callWithTools({ ...ask, tools: [searchTool], runTool });

    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toMatch(/^step 2: HTTP 500 .* gave up after \d+ attempts/);
    expect((await rows()).map((r) => r.status).sort()).toEqual(["failed", "ok"]);

    mock.setFaults([]);
    const before = mock.requests.length;
    expect(await llm.callWithTools({ ...ask, tools: [searchTool], runTool })).toMatchObject({ ok: true });
    expect(mock.requests.length - before).toBe(2); // step 1 from the cache
  });

  it("an invalid final answer is repaired once, as in call", async () => {
    const llm = await setup({
      respond: (r) =>
        r.messages.at(-1)?.content.includes("corrected reply") ? { title: "Fixed", sources: [] } : { title: 3 },
    });
    const result = await llm.callWithTools({ ...ask, tools: [searchTool], runTool: async () => "" });
    expect(result).toMatchObject({ ok: true, value: { title: "Fixed" } });
    expect(await rows()).toHaveLength(1);
    expect((await rows())[0]).toMatchObject({ status: "ok", attempts: 2 });
  });
});

describe("webResearch", () => {
  const report = { title: "A port dispute", sources: ["https://news.example/a"] };
  const citations = [{ url: "https://news.example/a", title: "Port strike" }, { url: "https://news.example/b" }];

  it("asks the Responses API with the web search tool and returns the parsed reply with its citations, cached on a rerun", async () => {
    const llm = await setup({
      respondResponses: () => ({ text: `Here is the report: ${JSON.stringify(report)}`, citations }),
    });

    const result = await llm.webResearch(ask);

    expect(result).toMatchObject({ ok: true, cached: false, value: report, citations });
    const body = mock.requests[0].body as { tools: unknown; input: unknown };
    expect(mock.requests[0].path).toBe("/v1/responses");
    expect(body.tools).toEqual([{ type: "web_search_preview" }]);
    expect(body.input).toEqual(ask.messages);
    expect((await rows())[0]).toMatchObject({ status: "ok", replyForm: "prose", parsed: { value: report, citations } });
    expect(result.usage.promptTokens).toBeGreaterThan(0);

    const again = await createLlm({ db: store.db, config: mockConfig(mock.url) }).webResearch(ask);
    expect(again).toMatchObject({ ok: true, cached: true, value: report, citations });
    expect(mock.requests).toHaveLength(1);
  });

  it("sends the schema as text.format when structured output is asked, and falls back when refused", async () => {
    const llm = await setup({
      respondResponses: () => ({ text: report, citations: [] }),
      faults: [{ fault: { kind: "refuse-structured" } }],
    });

    expect(await llm.webResearch({ ...ask, structured: true })).toMatchObject({ ok: true, value: report });

    expect(mock.requests.map((r) => [r.responseFormat, r.status])).toEqual([
      ["json_schema", 400],
      [undefined, 200],
    ]);
    expect((await rows())[0]).toMatchObject({ attempts: 2, request: { structuredOutput: "refused" } });
  });

  it("a failure is returned with no citations, not thrown", async () => {
    const llm = await setup({ faults: [{ fault: { kind: "status", status: 404, message: "no such model" } }] });
    const result = await llm.webResearch(ask);
    expect(result).toMatchObject({ ok: false, citations: [] });
    if (!result.ok) expect(result.error).toMatch(/HTTP 404 \(no such model\).*not retried/);
    expect((await rows())[0]).toMatchObject({ status: "failed" });
  });
});

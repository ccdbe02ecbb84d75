/**
 * The stand-in's wire formats: reading chat-completions and Responses API request bodies into the
 * one request shape responders see, and writing a responder's reply back as a chat completion
 * (text or tool calls) or a Responses API response (a message with url citations).
 */
import type { MockChatRequest, MockCitation, MockMessage, MockToolCall } from "../../../llm-roles/stand-in-request.ts";

/** Rough token counts (4 characters a token): enough for accounting tests, not a tokenizer. */
export function tokens(text: string): number {
  return Math.ceil(text.length / 4);
}

type Body = Record<string, unknown>;

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content.map((p) => (p && typeof p === "object" && "text" in p ? String(p.text) : "")).join("");
  return content == null ? "" : String(content);
}

function messageOf(m: Record<string, unknown>): MockMessage {
  const calls = Array.isArray(m.tool_calls)
    ? (m.tool_calls as { function?: { name?: string; arguments?: string } }[])
    : undefined;
  const toolCalls = calls?.map((c) => ({
    name: String(c.function?.name ?? ""),
    arguments: String(c.function?.arguments ?? ""),
  }));
  return { role: String(m.role), content: textOf(m.content), ...(toolCalls ? { toolCalls } : {}) };
}

/** The request a responder sees for a chat completion, or what is wrong with the body. */
export function chatRequestOf(body: unknown): MockChatRequest | string {
  const b = body as Body | undefined;
  if (!b || typeof b !== "object" || typeof b.model !== "string" || !Array.isArray(b.messages))
    return "mock-llm: expected a JSON body with model and messages";
  const format = b.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined;
  const tools = Array.isArray(b.tools)
    ? (b.tools as { function?: { name?: string } }[]).map((t) => String(t.function?.name ?? ""))
    : [];
  return {
    model: b.model,
    messages: (b.messages as Record<string, unknown>[]).map(messageOf),
    temperature: b.temperature as number | undefined,
    seed: b.seed as number | undefined,
    maxTokens: b.max_tokens as number | undefined,
    jsonMode: format?.type === "json_object",
    api: "chat",
    structured: format?.type === "json_schema",
    jsonSchema: format?.json_schema?.schema,
    tools,
    body: b,
  };
}

/** The request a responder sees for a Responses API call, or what is wrong with the body. */
export function responsesRequestOf(body: unknown): MockChatRequest | string {
  const b = body as Body | undefined;
  if (
    !b ||
    typeof b !== "object" ||
    typeof b.model !== "string" ||
    (typeof b.input !== "string" && !Array.isArray(b.input))
  )
    return "mock-llm: expected a JSON body with model and input";
  const input =
    typeof b.input === "string" ? [{ role: "user", content: b.input }] : (b.input as Record<string, unknown>[]);
  const instructions = typeof b.instructions === "string" ? [{ role: "system", content: b.instructions }] : [];
  const format = (b.text as { format?: { type?: string; schema?: unknown } } | undefined)?.format;
  return {
    model: b.model,
    messages: [...instructions, ...input].map(messageOf),
    temperature: b.temperature as number | undefined,
    maxTokens: b.max_output_tokens as number | undefined,
    jsonMode: false,
    api: "responses",
    structured: format?.type === "json_schema",
    jsonSchema: format?.schema,
    tools: Array.isArray(b.tools) ? (b.tools as { type?: string }[]).map((t) => String(t.type ?? "")) : [],
    body: b,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The tool calls a responder asked for (`{ toolCalls: [...] }`), if that is what it returned. */
export function toolCallsIn(reply: string | object): MockToolCall[] | undefined {
  if (!isObject(reply) || Object.keys(reply).length !== 1 || !Array.isArray(reply.toolCalls)) return undefined;
  return reply.toolCalls as MockToolCall[];
}

/** The text and citations of a Responses reply (`{ text, citations }`), or the whole reply as text. */
export function researchReplyIn(reply: string | object): { content: string; citations: MockCitation[] } {
  if (isObject(reply) && Array.isArray(reply.citations) && "text" in reply && Object.keys(reply).length === 2) {
    const text = reply.text as string | object;
    return {
      content: typeof text === "string" ? text : JSON.stringify(text),
      citations: reply.citations as MockCitation[],
    };
  }
  return { content: typeof reply === "string" ? reply : JSON.stringify(reply), citations: [] };
}

/** The reply text as a fault disguises it; the others leave it alone. */
export function disguise(content: string, fault: string | undefined): string {
  switch (fault) {
    case "malformed":
      return `Here is my answer: {${content.replace(/[{}]/g, "")}`;
    case "truncated":
      return content.slice(0, Math.max(1, Math.floor(content.length / 2)));
    case "prose":
      return `Sure — here is my answer. ${content} Let me know if you need anything else {or a different format}.`;
    case "think":
      return `<think>The reply should look like {"key": value}; a draft: {"draft": true}. Unbalanced { too.</think>\n\n${content}`;
    default:
      return content;
  }
}

function usage(request: MockChatRequest, content: string) {
  const prompt = request.messages.reduce((n, m) => n + tokens(m.content), 0);
  return { prompt, completion: tokens(content) };
}

/** A chat completion carrying the text, or the tool calls, a responder gave. */
export function chatCompletionBody(
  request: MockChatRequest,
  reply: { content: string } | { toolCalls: MockToolCall[] },
  index: number,
  truncated: boolean,
) {
  const toolCalls = "toolCalls" in reply ? reply.toolCalls : undefined;
  const content = "content" in reply ? reply.content : null;
  const used = usage(request, content ?? JSON.stringify(toolCalls));
  const message = toolCalls
    ? {
        role: "assistant",
        content: null,
        tool_calls: toolCalls.map((c, i) => ({
          id: `call-mock-${index}-${i + 1}`,
          type: "function",
          function: {
            name: c.name,
            arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments),
          },
        })),
      }
    : { role: "assistant", content };
  return {
    id: `chatcmpl-mock-${index}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [
      { index: 0, message, finish_reason: toolCalls ? "tool_calls" : truncated ? "length" : "stop", logprobs: null },
    ],
    usage: {
      prompt_tokens: used.prompt,
      completion_tokens: used.completion,
      total_tokens: used.prompt + used.completion,
    },
  };
}

/**
 * A Responses API response: a web search call when the tool was offered, then a message whose text cites its sources.
 */
export function responsesBody(request: MockChatRequest, content: string, citations: MockCitation[], index: number) {
  const used = usage(request, content);
  const search = request.tools.some((t) => t.startsWith("web_search"))
    ? [
        {
          type: "web_search_call",
          id: `ws-mock-${index}`,
          status: "completed",
          action: { type: "search", query: request.messages.at(-1)?.content.slice(0, 80) ?? "" },
        },
      ]
    : [];
  const annotations = citations.map((c) => ({
    type: "url_citation",
    url: c.url,
    title: c.title ?? "",
    start_index: 0,
    end_index: content.length,
  }));
  return {
    id: `resp-mock-${index}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "completed",
    model: request.model,
    output: [
      ...search,
      {
        type: "message",
        id: `msg-mock-${index}`,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: content, annotations }],
      },
    ],
    parallel_tool_calls: true,
    tool_choice: "auto",
    tools: [],
    usage: {
      input_tokens: used.prompt,
      output_tokens: used.completion,
      total_tokens: used.prompt + used.completion,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    },
  };
}

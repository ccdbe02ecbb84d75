/**
 * A local OpenAI-compatible server for tests and benchmarks — a stand-in endpoint, never a
 * model. It answers POST /v1/chat/completions (plain replies, or `tool_calls` when the responder
 * returns `{ toolCalls }`) and POST /v1/responses (the Responses API, with url citations) from
 * pluggable responders, GET /v1/models, adds latency, injects faults (429 with Retry-After, 5xx
 * bursts, slow replies, malformed or truncated JSON, replies wrapped in prose or after a <think>
 * block, a refusal of structured output, connection resets, any other status) and records every
 * request with timestamps and the peak number of requests in flight.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { createRng } from "../../app/domain/stats/rng.ts";
import { chatCompletionBody, chatRequestOf, disguise, researchReplyIn, responsesBody, responsesRequestOf, toolCallsIn } from "./wire.ts";

export interface MockMessage {
  role: string;
  content: string;
  /** The tool calls of an assistant turn in a tool loop. */
  toolCalls?: MockToolCall[];
}

/** A tool call as a responder asks for it; `arguments` may be an object (sent as its JSON). */
export interface MockToolCall {
  name: string;
  arguments: string | object;
}

export interface MockCitation {
  url: string;
  title?: string;
}

/** What a responder sees: the useful fields of the request body, and the body itself. */
export interface MockChatRequest {
  model: string;
  messages: MockMessage[];
  temperature?: number;
  seed?: number;
  maxTokens?: number;
  jsonMode: boolean;
  /** Which endpoint was asked: chat completions, or the Responses API (web research). */
  api: "chat" | "responses";
  /** A JSON schema was sent (structured output), and the schema itself. */
  structured: boolean;
  jsonSchema?: unknown;
  /** The tools offered: function names (chat), or built-in tool types such as web_search_preview (responses). */
  tools: string[];
  body: Record<string, unknown>;
}

/**
 * Returns the reply content: a string as is, anything else as its JSON — except two shapes:
 * `{ toolCalls: [{ name, arguments }] }` answers a chat request with tool calls, and
 * `{ text, citations: [{ url, title? }] }` answers a Responses request with url citations.
 */
export type Responder = (request: MockChatRequest) => string | object;

export type Fault =
  | { kind: "429"; retryAfterSeconds?: number; retryAfterMs?: number }
  | { kind: "5xx"; status?: number }
  | { kind: "slow"; delayMs: number }
  | { kind: "malformed" }
  | { kind: "truncated" }
  | { kind: "reset" }
  | { kind: "status"; status: number; message?: string }
  /** The reply wrapped in prose ("Sure — here is my answer. {…} Let me know…"). */
  | { kind: "prose" }
  /** The reply after a <think> block whose reasoning contains braces. */
  | { kind: "think" }
  /** HTTP 400 naming response_format, as servers without structured output answer; only requests that send a JSON schema match. */
  | { kind: "refuse-structured" };

export interface FaultRule {
  fault: Fault;
  /** How many matching requests get the fault (a burst of N); default 1. */
  times?: number;
  /** Only requests from this 1-based request number on. */
  fromRequest?: number;
  /** Only requests with a message whose content matches. */
  match?: RegExp;
  model?: string | RegExp;
}

export interface RecordedRequest {
  /** 1-based, in arrival order. */
  index: number;
  method: string;
  path: string;
  body: unknown;
  /** performance.timeOrigin-based milliseconds, comparable across requests. */
  receivedAt: number;
  respondedAt?: number;
  status?: number;
  fault?: Fault["kind"];
  /** The reply format asked for: response_format.type (chat) or text.format.type (responses). */
  responseFormat?: string;
}

export interface MockLlmOptions {
  respond?: Responder;
  /** Answers POST /v1/responses; `respond` when absent. */
  respondResponses?: Responder;
  /** Fixed delay before every reply, or uniform in [min, max] from a seeded generator. */
  latencyMs?: number | { min: number; max: number };
  seed?: number;
  models?: string[];
  faults?: FaultRule[];
  port?: number;
}

export interface MockLlm {
  /** Base URL ending in /v1, as an OpenAI client expects. */
  url: string;
  requests: RecordedRequest[];
  /** Replaces the fault rules; each rule is used up after `times` matching requests. */
  setFaults(rules: FaultRule[]): void;
  /** A whole-server outage: every request, GET /v1/models included, answers this status until called with undefined. */
  setOutage(status: number | undefined): void;
  /** The most chat requests that were in flight at once. */
  maxInFlight(): number;
  close(): Promise<void>;
}

export interface ScriptedReply {
  model?: string | RegExp;
  /** Tested against the last user message. */
  match?: RegExp;
  /** Tested against every message. */
  matchAny?: RegExp;
  reply: string | object | Responder;
}

/** A responder from rules tried in order; a request no rule matches gets HTTP 400 with an explanation. */
export function scripted(rules: ScriptedReply[]): Responder {
  return (request) => {
    const lastUser = [...request.messages].reverse().find((m) => m.role === "user")?.content ?? "";
    const rule = rules.find(
      (r) =>
        matches(r.model, request.model) &&
        (r.match === undefined || r.match.test(lastUser)) &&
        (r.matchAny === undefined || request.messages.some((m) => r.matchAny!.test(m.content)))
    );
    if (!rule)
      throw new NoScriptedReply(
        `mock-llm: no scripted reply for model "${request.model}" and message ${JSON.stringify(lastUser.slice(0, 120))}`
      );
    return typeof rule.reply === "function" ? rule.reply(request) : rule.reply;
  };
}

class NoScriptedReply extends Error {}

function matches(pattern: string | RegExp | undefined, value: string): boolean {
  if (pattern === undefined) return true;
  return typeof pattern === "string" ? pattern === value : pattern.test(value);
}

const now = () => performance.timeOrigin + performance.now();
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function startMockLlm(options: MockLlmOptions = {}): Promise<MockLlm> {
  const respond = options.respond ?? ((req) => ({ echo: req.messages.at(-1)?.content ?? "" }));
  const respondResponses = options.respondResponses ?? respond;
  const rng = createRng(options.seed ?? 1);
  const models = options.models ?? ["mock-model"];
  const requests: RecordedRequest[] = [];
  let rules: { rule: FaultRule; left: number }[] = [];
  let inFlight = 0;
  let peak = 0;
  let outage: number | undefined;

  const setFaults = (next: FaultRule[]) => {
    rules = next.map((rule) => ({ rule, left: rule.times ?? 1 }));
  };
  setFaults(options.faults ?? []);

  function latency(): number {
    const l = options.latencyMs ?? 0;
    return typeof l === "number" ? l : l.min + rng() * (l.max - l.min);
  }

  function takeFault(record: RecordedRequest, chat: MockChatRequest): Fault | undefined {
    const found = rules.find(
      ({ rule, left }) =>
        left > 0 &&
        record.index >= (rule.fromRequest ?? 1) &&
        matches(rule.model, chat.model) &&
        // A refusal of structured output only answers requests that send a JSON schema.
        (rule.fault.kind !== "refuse-structured" || chat.structured) &&
        (rule.match === undefined || chat.messages.some((m) => rule.match!.test(m.content)))
    );
    if (!found) return undefined;
    found.left--;
    return found.rule.fault;
  }

  function send(
    res: ServerResponse,
    record: RecordedRequest,
    status: number,
    body: unknown,
    headers: Record<string, string> = {}
  ) {
    if (res.destroyed) return; // the client gave up (its timeout) before we answered
    record.status = status;
    record.respondedAt = now();
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(JSON.stringify(body));
  }

  const errorBody = (message: string, type: string) => ({ error: { message, type, code: null, param: null } });

  /** Answers one chat or Responses request: its fault if any, else the responder's reply in that API's shape. */
  async function answer(req: IncomingMessage, res: ServerResponse, record: RecordedRequest, api: "chat" | "responses") {
    const request = api === "chat" ? chatRequestOf(record.body) : responsesRequestOf(record.body);
    if (typeof request === "string") return send(res, record, 400, errorBody(request, "invalid_request_error"));
    record.responseFormat = (api === "chat" ? (request.body.response_format as { type?: string } | undefined) : (request.body.text as { format?: { type?: string } } | undefined)?.format)?.type;
    const fault = takeFault(record, request);
    record.fault = fault?.kind;
    await wait(latency());

    switch (fault?.kind) {
      case "reset":
        record.respondedAt = now();
        req.socket.destroy();
        return;
      case "429": {
        const headers: Record<string, string> = {};
        if (fault.retryAfterSeconds !== undefined) headers["retry-after"] = String(fault.retryAfterSeconds);
        if (fault.retryAfterMs !== undefined) headers["retry-after-ms"] = String(fault.retryAfterMs);
        return send(res, record, 429, errorBody("mock-llm: rate limited", "rate_limit_error"), headers);
      }
      case "5xx":
        return send(res, record, fault.status ?? 500, errorBody("mock-llm: injected server error", "server_error"));
      case "status":
        return send(res, record, fault.status, errorBody(fault.message ?? `mock-llm: injected HTTP ${fault.status}`, "invalid_request_error"));
      case "refuse-structured":
        return send(res, record, 400, errorBody("mock-llm: response_format json_schema is not supported by this stand-in (injected refuse-structured)", "invalid_request_error"));
      case "slow":
        await wait(fault.delayMs);
        break;
    }

    let reply: string | object;
    try {
      reply = api === "chat" ? respond(request) : respondResponses(request);
    } catch (err) {
      const status = err instanceof NoScriptedReply ? 400 : 500;
      return send(res, record, status, errorBody((err as Error).message, "mock_responder_error"));
    }
    if (api === "responses") {
      const { content, citations } = researchReplyIn(reply);
      return send(res, record, 200, responsesBody(request, disguise(content, fault?.kind), citations, record.index));
    }
    const toolCalls = toolCallsIn(reply);
    const content = typeof reply === "string" ? reply : JSON.stringify(reply);
    const shaped = toolCalls && request.tools.length > 0 ? { toolCalls } : { content: disguise(content, fault?.kind) };
    send(res, record, 200, chatCompletionBody(request, shaped, record.index, fault?.kind === "truncated"));
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      const path = (req.url ?? "/").split("?")[0];
      const record: RecordedRequest = { index: requests.length + 1, method: req.method ?? "GET", path, body, receivedAt: now() };
      requests.push(record);

      if (outage !== undefined) return send(res, record, outage, errorBody(`mock-llm: outage (HTTP ${outage})`, "server_error"));
      if (req.method === "GET" && path === "/v1/models") {
        return send(res, record, 200, {
          object: "list",
          data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "mock-llm" })),
        });
      }
      const api = req.method !== "POST" ? undefined : path === "/v1/chat/completions" ? "chat" : path === "/v1/responses" ? "responses" : undefined;
      if (!api) return send(res, record, 404, errorBody(`mock-llm: no route ${req.method} ${path}`, "not_found"));
      inFlight++;
      peak = Math.max(peak, inFlight);
      res.on("close", () => inFlight--);
      answer(req, res, record, api).catch((err) => send(res, record, 500, errorBody(String(err), "mock_error")));
    });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setFaults,
    setOutage: (status) => void (outage = status),
    maxInFlight: () => peak,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

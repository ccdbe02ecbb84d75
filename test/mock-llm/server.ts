/**
 * A local OpenAI-compatible server for tests and benchmarks — a stand-in endpoint, never a
 * model. It answers POST /v1/chat/completions from a pluggable responder, GET /v1/models, adds
 * latency, injects faults (429 with Retry-After, 5xx bursts, slow replies, malformed or truncated
 * JSON, connection resets, any other status) and records every request with timestamps and the
 * peak number of requests in flight.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { createRng } from "../../app/domain/stats/rng.ts";

export interface MockMessage {
  role: string;
  content: string;
}

/** What a responder sees: the useful fields of the request body, and the body itself. */
export interface MockChatRequest {
  model: string;
  messages: MockMessage[];
  temperature?: number;
  seed?: number;
  maxTokens?: number;
  jsonMode: boolean;
  body: Record<string, unknown>;
}

/** Returns the reply content: a string as is, anything else as its JSON. */
export type Responder = (request: MockChatRequest) => string | object;

export type Fault =
  | { kind: "429"; retryAfterSeconds?: number; retryAfterMs?: number }
  | { kind: "5xx"; status?: number }
  | { kind: "slow"; delayMs: number }
  | { kind: "malformed" }
  | { kind: "truncated" }
  | { kind: "reset" }
  | { kind: "status"; status: number; message?: string };

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
}

export interface MockLlmOptions {
  respond?: Responder;
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

/** Rough token counts (4 characters a token): enough for accounting tests, not a tokenizer. */
function tokens(text: string): number {
  return Math.ceil(text.length / 4);
}

const now = () => performance.timeOrigin + performance.now();
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function startMockLlm(options: MockLlmOptions = {}): Promise<MockLlm> {
  const respond = options.respond ?? ((req) => ({ echo: req.messages.at(-1)?.content ?? "" }));
  const rng = createRng(options.seed ?? 1);
  const models = options.models ?? ["mock-model"];
  const requests: RecordedRequest[] = [];
  let rules: { rule: FaultRule; left: number }[] = [];
  let inFlight = 0;
  let peak = 0;

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

  async function chat(req: IncomingMessage, res: ServerResponse, record: RecordedRequest) {
    const body = record.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== "object" || typeof body.model !== "string" || !Array.isArray(body.messages)) {
      return send(res, record, 400, errorBody("mock-llm: expected a JSON body with model and messages", "invalid_request_error"));
    }
    const chatRequest: MockChatRequest = {
      model: body.model,
      messages: (body.messages as MockMessage[]).map((m) => ({ role: String(m.role), content: String(m.content ?? "") })),
      temperature: body.temperature as number | undefined,
      seed: body.seed as number | undefined,
      maxTokens: body.max_tokens as number | undefined,
      jsonMode: (body.response_format as { type?: string } | undefined)?.type === "json_object",
      body,
    };
    const fault = takeFault(record, chatRequest);
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
        return send(
          res,
          record,
          fault.status,
          errorBody(fault.message ?? `mock-llm: injected HTTP ${fault.status}`, "invalid_request_error")
        );
      case "slow":
        await wait(fault.delayMs);
        break;
    }

    let reply: string | object;
    try {
      reply = respond(chatRequest);
    } catch (err) {
      const status = err instanceof NoScriptedReply ? 400 : 500;
      return send(res, record, status, errorBody((err as Error).message, "mock_responder_error"));
    }
    let content = typeof reply === "string" ? reply : JSON.stringify(reply);
    if (fault?.kind === "malformed") content = `Here is my answer: {${content.replace(/[{}]/g, "")}`;
    if (fault?.kind === "truncated") content = content.slice(0, Math.max(1, Math.floor(content.length / 2)));

    const promptTokens = chatRequest.messages.reduce((n, m) => n + tokens(m.content), 0);
    const completionTokens = tokens(content);
    send(res, record, 200, {
      id: `chatcmpl-mock-${record.index}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model: chatRequest.model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content },
          finish_reason: fault?.kind === "truncated" ? "length" : "stop",
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens },
    });
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

      if (req.method === "GET" && path === "/v1/models") {
        return send(res, record, 200, {
          object: "list",
          data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "mock-llm" })),
        });
      }
      if (req.method !== "POST" || path !== "/v1/chat/completions") {
        return send(res, record, 404, errorBody(`mock-llm: no route ${req.method} ${path}`, "not_found"));
      }
      inFlight++;
      peak = Math.max(peak, inFlight);
      res.on("close", () => inFlight--);
      chat(req, res, record).catch((err) => send(res, record, 500, errorBody(String(err), "mock_error")));
    });
  });

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setFaults,
    maxInFlight: () => peak,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

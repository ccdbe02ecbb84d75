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
import { ROLE_HEADER, TEMPLATE_HEADER } from "../../../domain/llm/types.ts";
import { createRng } from "../../../domain/stats/rng.ts";
import { type MockChatRequest, type Responder, StandInRequestError } from "../../../llm-roles/stand-in-request.ts";
import { errorBody, type Fault, type FaultRule, FaultRules, faultResponse, matches } from "./faults.server.ts";
import {
  chatCompletionBody,
  chatRequestOf,
  disguise,
  researchReplyIn,
  responsesBody,
  responsesRequestOf,
  toolCallsIn,
} from "./wire.server.ts";

export type {
  MockChatRequest,
  Responder,
} from "../../../llm-roles/stand-in-request.ts";
export type { Fault, FaultRule } from "./faults.server.ts";

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
  /** The role and prompt template the client named in its headers. */
  llmRole?: string;
  template?: string;
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
        (r.matchAny === undefined || request.messages.some((m) => r.matchAny!.test(m.content))),
    );
    if (!rule)
      throw new StandInRequestError(
        `mock-llm: no scripted reply for model "${request.model}" and message ${JSON.stringify(lastUser.slice(0, 120))}`,
      );
    return typeof rule.reply === "function" ? rule.reply(request) : rule.reply;
  };
}

const now = () => performance.timeOrigin + performance.now();
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return typeof value === "string" && value !== "" ? value : undefined;
};

/** One running stand-in: its options, recorded requests, fault rules and load. */
interface StandIn {
  options: MockLlmOptions;
  respond: Responder;
  respondResponses: Responder;
  latency: () => number;
  requests: RecordedRequest[];
  faults: FaultRules;
  inFlight: number;
  peak: number;
  outage?: number;
}

function send(
  res: ServerResponse,
  record: RecordedRequest,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  if (res.destroyed) return; // the client gave up (its timeout) before we answered
  record.status = status;
  record.respondedAt = now();
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

/** The request a responder sees, with the role and template the client named; or what is wrong with it. */
function requestOf(req: IncomingMessage, record: RecordedRequest, api: "chat" | "responses"): MockChatRequest | string {
  const request = api === "chat" ? chatRequestOf(record.body) : responsesRequestOf(record.body);
  if (typeof request === "string") return request;
  const format =
    api === "chat" ? request.body.response_format : (request.body.text as { format?: unknown } | undefined)?.format;
  record.responseFormat = (format as { type?: string } | undefined)?.type;
  record.llmRole = header(req, ROLE_HEADER);
  record.template = header(req, TEMPLATE_HEADER);
  return { ...request, llmRole: record.llmRole, template: record.template };
}

/** Answers one chat or Responses request: its fault if any, else the responder's reply in that API's shape. */
async function answer(
  s: StandIn,
  req: IncomingMessage,
  res: ServerResponse,
  record: RecordedRequest,
  api: "chat" | "responses",
) {
  const request = requestOf(req, record, api);
  if (typeof request === "string") return send(res, record, 400, errorBody(request, "invalid_request_error"));
  const fault = s.faults.take(record.index, request);
  record.fault = fault?.kind;
  await wait(s.latency());
  if (fault?.kind === "reset") {
    record.respondedAt = now();
    req.socket.destroy();
    return;
  }
  const failed = faultResponse(fault);
  if (failed) return send(res, record, failed.status, failed.body, failed.headers);
  if (fault?.kind === "slow") await wait(fault.delayMs);

  let reply: string | object;
  try {
    reply = api === "chat" ? s.respond(request) : s.respondResponses(request);
  } catch (err) {
    const status = err instanceof StandInRequestError ? 400 : 500;
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

function parseBody(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

/** Routes one whole request: an outage, GET /v1/models, or a chat/Responses call counted in flight. */
function route(s: StandIn, req: IncomingMessage, res: ServerResponse, text: string) {
  const path = (req.url ?? "/").split("?")[0];
  const method = req.method ?? "GET";
  const index = s.requests.length + 1;
  const record: RecordedRequest = { index, method, path, body: parseBody(text), receivedAt: now() };
  s.requests.push(record);

  if (s.outage !== undefined) {
    return send(res, record, s.outage, errorBody(`mock-llm: outage (HTTP ${s.outage})`, "server_error"));
  }
  if (method === "GET" && path === "/v1/models") {
    const models = s.options.models ?? ["mock-model"];
    const data = models.map((id) => ({ id, object: "model", created: 0, owned_by: "mock-llm" }));
    return send(res, record, 200, { object: "list", data });
  }
  const apis: Record<string, "chat" | "responses"> = { "/v1/chat/completions": "chat", "/v1/responses": "responses" };
  const api = method === "POST" ? apis[path] : undefined;
  if (!api) return send(res, record, 404, errorBody(`mock-llm: no route ${method} ${path}`, "not_found"));
  s.inFlight++;
  s.peak = Math.max(s.peak, s.inFlight);
  res.on("close", () => s.inFlight--);
  answer(s, req, res, record, api).catch((err) => send(res, record, 500, errorBody(String(err), "mock_error")));
}

function standIn(options: MockLlmOptions): StandIn {
  const respond = options.respond ?? ((req: MockChatRequest) => ({ echo: req.messages.at(-1)?.content ?? "" }));
  const rng = createRng(options.seed ?? 1);
  const latency = () => {
    const l = options.latencyMs ?? 0;
    return typeof l === "number" ? l : l.min + rng() * (l.max - l.min);
  };
  const faults = new FaultRules();
  faults.set(options.faults ?? []);
  const respondResponses = options.respondResponses ?? respond;
  return { options, respond, respondResponses, latency, requests: [], faults, inFlight: 0, peak: 0 };
}

export async function startMockLlm(options: MockLlmOptions = {}): Promise<MockLlm> {
  const s = standIn(options);
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => route(s, req, res, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: s.requests,
    setFaults: (rules) => s.faults.set(rules),
    setOutage: (status) => void (s.outage = status),
    maxInFlight: () => s.peak,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

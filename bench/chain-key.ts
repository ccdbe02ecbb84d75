/**
 * One chat request's identity as both sides of the benches see it: the client's traced call
 * (bench/dependent-chain.ts) and the stand-in's record of what it received
 * (bench/mock-llm-process.ts). Model, seed, temperature, token limit and messages: what the
 * client sends, so the same request gets the same key on both sides.
 */
import { createHash } from "node:crypto";
import type { RecordedRequest } from "../app/server/llm/stand-in/endpoint.server.ts";

export interface KeyedRequest {
  model: string;
  seed?: number;
  temperature?: number;
  maxTokens?: number;
  messages: { role: string; content: unknown }[];
}

export function requestKey(r: KeyedRequest): string {
  // Part by part, without one JSON text of the whole request: the tracer's CPU counts as the runner's.
  const hash = createHash("sha1").update(JSON.stringify([r.model, r.seed, r.temperature, r.maxTokens]));
  for (const m of r.messages) {
    hash.update(`\u0000${m.role}\u0000`);
    hash.update(typeof m.content === "string" ? m.content : JSON.stringify(m.content));
  }
  return hash.digest("base64");
}

/** One chat request as the stand-in served it: its key, the request it repairs if any, and its service time. */
export interface ServiceRecord {
  key: string;
  repairOf?: string;
  /** responded − received, in ms. */
  ms: number;
}

/** The service time the stand-in recorded for a request (responded − received, in ms). */
export const serviceMs = (r: RecordedRequest) => (r.respondedAt ?? r.receivedAt) - r.receivedAt;

/** A chat completion request as served; undefined for anything else. */
export function serviceRecordOf(r: RecordedRequest): ServiceRecord | undefined {
  const keys = r.path === "/v1/chat/completions" ? recordedKeys(r.body) : undefined;
  return keys && { ...keys, ms: serviceMs(r) };
}

/**
 * The key of a request body as the stand-in recorded it (chat completions), and of the request it repairs, if it is a
 * repair round.
 */
function recordedKeys(body: unknown): { key: string; repairOf?: string } | undefined {
  const b = body as
    | {
        model?: string;
        seed?: number;
        temperature?: number;
        max_tokens?: number;
        messages?: { role: string; content: unknown }[];
      }
    | undefined;
  if (!b || typeof b.model !== "string" || !Array.isArray(b.messages)) return undefined;
  const base = { model: b.model, seed: b.seed, temperature: b.temperature, maxTokens: b.max_tokens };
  const key = requestKey({ ...base, messages: b.messages });
  // A repair round resends the request with the reply and a correction appended (app/server/llm/chat-step.server.ts).
  const m = b.messages;
  const repair = m.length >= 3 && m[m.length - 2].role === "assistant" && m[m.length - 1].role === "user";
  return { key, repairOf: repair ? requestKey({ ...base, messages: m.slice(0, -2) }) : undefined };
}

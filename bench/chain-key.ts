/**
 * One chat request's identity as both sides of the benches see it: the client's traced call
 * (bench/dependent-chain.ts) and the stand-in's record of what it received
 * (bench/mock-llm-process.ts). Model, seed, temperature, token limit and messages: what the
 * client sends, so the same request gets the same key on both sides.
 */
import { createHash } from "node:crypto";

export interface KeyedRequest {
  model: string;
  seed?: number;
  temperature?: number;
  maxTokens?: number;
  messages: { role: string; content: unknown }[];
}

export function requestKey(r: KeyedRequest): string {
  const text = JSON.stringify([r.model, r.seed, r.temperature, r.maxTokens, r.messages.map((m) => [m.role, m.content])]);
  return createHash("sha1").update(text).digest("base64");
}

/** The key of a request body as the stand-in recorded it (chat completions), and of the request it repairs, if it is a repair round. */
export function recordedKeys(body: unknown): { key: string; repairOf?: string } | undefined {
  const b = body as { model?: string; seed?: number; temperature?: number; max_tokens?: number; messages?: { role: string; content: unknown }[] } | undefined;
  if (!b || typeof b.model !== "string" || !Array.isArray(b.messages)) return undefined;
  const base = { model: b.model, seed: b.seed, temperature: b.temperature, maxTokens: b.max_tokens };
  const key = requestKey({ ...base, messages: b.messages });
  // A repair round resends the request with the reply and a correction appended (app/server/llm/chat-step.server.ts).
  const m = b.messages;
  const repair = m.length >= 3 && m[m.length - 2].role === "assistant" && m[m.length - 1].role === "user";
  return { key, repairOf: repair ? requestKey({ ...base, messages: m.slice(0, -2) }) : undefined };
}

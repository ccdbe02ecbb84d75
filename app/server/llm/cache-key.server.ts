/**
 * The LLM cache key: a hash of everything that determines a model's reply, so an identical
 * request finds its stored reply in llm_calls (app/server/models/llm-call.server.ts).
 */
import { createHash } from "node:crypto";
import type { ChatMessage } from "../../domain/llm/types.ts";

/** Everything that determines a model's reply; the reply's schema is deliberately left out. */
export interface CacheKeyParts {
  /** The endpoint's address: its baseUrl, or `pool:<name>` for a pool (never the replica that answered). */
  baseUrl: string;
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  seed?: number;
  jsonMode: boolean;
  /** Structured output asked for (absent when not, so older keys stay valid). */
  structured?: boolean;
  /** The tools offered (callWithTools), and the turns after `messages` so far: tool calls and results. */
  tools?: unknown;
  continuation?: unknown[];
  /** "responses" for the Responses API (webResearch), with its built-in tool; absent for chat completions. */
  api?: string;
}

/** A part already in canonical JSON, written as it is. */
class CanonicalText {
  constructor(readonly text: string) {}
}

/** JSON with object keys sorted at every level and undefined dropped, so equal values hash equally. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (value instanceof CanonicalText) return value.text;
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/**
 * The messages as canonicalJson writes them (keys in sorted order: content, role), written string
 * by string when every role and content is a string, without an object per message: the prompts
 * are most of what a key hashes, and a key is made for every call.
 */
function canonicalMessages(messages: ChatMessage[]): CanonicalText | { role: unknown; content: unknown }[] {
  let text = "[";
  for (let i = 0; i < messages.length; i++) {
    const { role, content } = messages[i];
    // Anything else on a message (never hashed) would be lost from the text the request reuses: then no text.
    if (typeof content !== "string" || typeof role !== "string" || !onlyRoleAndContent(messages[i]))
      return messages.map((m) => ({ content: m.content, role: m.role }));
    text += `${i > 0 ? "," : ""}{"content":${JSON.stringify(content)},"role":${JSON.stringify(role)}}`;
  }
  return new CanonicalText(`${text}]`);
}

function onlyRoleAndContent(message: object): boolean {
  let keys = 0;
  for (const _ in message) keys++;
  return keys === 2;
}

export function cacheKey(parts: CacheKeyParts): string {
  return keyAndMessagesJson(parts).key;
}

/**
 * The cache key, and the messages as JSON text when every role and content is a string (the text the
 * key hashed): the request sent and the row stored reuse it instead of writing the prompts out again.
 */
export function keyAndMessagesJson(parts: CacheKeyParts): { key: string; messagesJson?: string } {
  const { baseUrl, model, messages, temperature, maxTokens, seed, jsonMode, structured, tools, continuation, api } =
    parts;
  const written = canonicalMessages(messages);
  const normalised = {
    structured: structured || undefined,
    tools,
    continuation,
    api,
    baseUrl: baseUrl.replace(/\/+$/, ""),
    model,
    messages: written,
    temperature,
    maxTokens,
    seed,
    jsonMode,
  };
  const key = createHash("sha256").update(canonicalJson(normalised)).digest("hex");
  return written instanceof CanonicalText ? { key, messagesJson: written.text } : { key };
}

/**
 * `{"messages":<messagesJson>, …rest}` as JSON text: an object holding messages already written out,
 * without writing them again (rest's own keys follow, undefined ones dropped as JSON.stringify does).
 */
export function jsonWithMessages(messagesJson: string, rest: object): string {
  const others = JSON.stringify(rest);
  return `{"messages":${messagesJson}${others.length > 2 ? `,${others.slice(1)}` : "}"}`;
}

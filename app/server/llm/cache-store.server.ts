/**
 * The LLM call record and cache in SQLite (table llm_calls). One row per distinct request: an ok
 * row is a cache hit for every later identical request, in this process or a restarted one. A
 * failed row is not a hit — the next run tries again and overwrites it — but it stays on record
 * until then. Tokens, cost and attempts add up over every try of the same request, so the table
 * keeps what was spent even on replies that were later superseded.
 */
import { createHash } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { llmCalls } from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";
import type { ChatMessage } from "../../domain/llm/types.ts";

/** Everything that determines a model's reply; the reply's schema is deliberately left out. */
export interface CacheKeyParts {
  baseUrl: string;
  model: string;
  messages: ChatMessage[];
  temperature?: number;
  maxTokens?: number;
  seed?: number;
  jsonMode: boolean;
}

/** JSON with object keys sorted at every level and undefined dropped, so equal values hash equally. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v))).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

export function cacheKey(parts: CacheKeyParts): string {
  const { baseUrl, model, messages, temperature, maxTokens, seed, jsonMode } = parts;
  const normalised = {
    baseUrl: baseUrl.replace(/\/+$/, ""),
    model,
    messages: messages.map(({ role, content }) => ({ role, content })),
    temperature,
    maxTokens,
    seed,
    jsonMode,
  };
  return createHash("sha256").update(canonicalJson(normalised)).digest("hex");
}

export type LlmCallRow = typeof llmCalls.$inferSelect;
export type NewLlmCallRow = Omit<typeof llmCalls.$inferInsert, "createdAt">;

/** The stored successful call for this key, if any. */
export function findOkCall(db: Db, key: string): LlmCallRow | undefined {
  const row = db.select().from(llmCalls).where(eq(llmCalls.cacheKey, key)).get();
  return row?.status === "ok" ? row : undefined;
}

/** Stores a call's outcome, replacing an earlier outcome for the same key but adding up its spend. */
export function recordCall(db: Db, row: NewLlmCallRow): void {
  db.insert(llmCalls)
    .values(row)
    .onConflictDoUpdate({
      target: llmCalls.cacheKey,
      set: {
        role: row.role,
        model: row.model,
        request: row.request,
        response: row.response ?? null,
        parsed: row.parsed ?? null,
        status: row.status,
        error: row.error ?? null,
        latencyMs: row.latencyMs,
        subject: row.subject ?? null,
        promptTokens: sql`llm_calls.prompt_tokens + excluded.prompt_tokens`,
        completionTokens: sql`llm_calls.completion_tokens + excluded.completion_tokens`,
        costUsd: sql`llm_calls.cost_usd + excluded.cost_usd`,
        attempts: sql`llm_calls.attempts + excluded.attempts`,
        createdAt: sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
      },
    })
    .run();
}

/**
 * Data access for llm_calls, the LLM call record and cache: one row per distinct request (keyed
 * by its cache key). An ok row is a cache hit for every later identical request; a failed row is
 * not, and the next try overwrites it. Tokens, cost and attempts add up over every try of the
 * same request, so the table keeps what was spent even on replies later superseded.
 * `reply_form` says how the JSON was found in the reply (json | fenced | prose | think |
 * structured); it is null for a failed call and for an intermediate tool-call step, whose
 * `parsed` holds `{ toolCalls }`. A web-research row's `parsed` holds `{ value, citations }`.
 */
import { and, eq, sql } from "drizzle-orm";
import { llmCalls } from "../../../db/schema.ts";
import type { Db } from "../db.server.ts";
import { preparedOnce } from "./prepared.server.ts";

export type LlmCallRow = typeof llmCalls.$inferSelect;
export type NewLlmCallRow = Omit<typeof llmCalls.$inferInsert, "createdAt">;

// Looked up before every LLM call: prepared once per connection.
const byKey = preparedOnce((db) => db.select().from(llmCalls).where(eq(llmCalls.cacheKey, sql.placeholder("key"))).prepare());

/** The stored successful call for this key, if any. */
export function findOkCall(db: Db, key: string): LlmCallRow | undefined {
  const row = byKey(db).get({ key });
  return row?.status === "ok" ? row : undefined;
}

/** What a cache hit needs of a stored ok call: not its request, the largest column. */
export type OkReply = Pick<LlmCallRow, "response" | "replyForm" | "baseUrl" | "promptTokens" | "completionTokens" | "costUsd" | "latencyMs">;

const okReplyByKey = preparedOnce((db) =>
  db
    .select({
      response: llmCalls.response,
      replyForm: llmCalls.replyForm,
      baseUrl: llmCalls.baseUrl,
      promptTokens: llmCalls.promptTokens,
      completionTokens: llmCalls.completionTokens,
      costUsd: llmCalls.costUsd,
      latencyMs: llmCalls.latencyMs,
    })
    .from(llmCalls)
    .where(and(eq(llmCalls.cacheKey, sql.placeholder("key")), eq(llmCalls.status, "ok")))
    .prepare(),
);

/** The reply of the stored successful call for this key, if any (the chat cache's lookup). */
export function findOkReply(db: Db, key: string): OkReply | undefined {
  return okReplyByKey(db).get({ key });
}

/*
 * Every LLM call is recorded before its result is used, so this insert runs once per call: a
 * statement prepared once per connection (building the drizzle upsert each time cost more than
 * running it). The conflict clause takes every column from the new row (`excluded`) except the
 * spend, which adds up, and refreshes created_at.
 */
const upsert = preparedOnce((db) =>
  db.$client.prepare(`
    INSERT INTO llm_calls (cache_key, role, base_url, model, request, response, parsed, status, error,
      prompt_tokens, completion_tokens, cost_usd, attempts, latency_ms, subject, reply_form)
    VALUES (@cacheKey, @role, @baseUrl, @model, @request, @response, @parsed, @status, @error,
      @promptTokens, @completionTokens, @costUsd, @attempts, @latencyMs, @subject, @replyForm)
    ON CONFLICT (cache_key) DO UPDATE SET
      role = excluded.role, model = excluded.model, request = excluded.request, response = excluded.response,
      parsed = excluded.parsed, status = excluded.status, error = excluded.error, latency_ms = excluded.latency_ms,
      subject = excluded.subject, reply_form = excluded.reply_form,
      prompt_tokens = llm_calls.prompt_tokens + excluded.prompt_tokens,
      completion_tokens = llm_calls.completion_tokens + excluded.completion_tokens,
      cost_usd = llm_calls.cost_usd + excluded.cost_usd,
      attempts = llm_calls.attempts + excluded.attempts,
      created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`),
);

/** JSON text for a json-mode column, as drizzle would store it (null stays NULL). */
const jsonText = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

/** Stores a call's outcome, replacing an earlier outcome for the same key but adding up its spend. */
export function recordCall(db: Db, row: NewLlmCallRow): void {
  upsert(db).run({
    cacheKey: row.cacheKey,
    role: row.role,
    baseUrl: row.baseUrl,
    model: row.model,
    request: JSON.stringify(row.request),
    response: row.response ?? null,
    parsed: jsonText(row.parsed),
    status: row.status,
    error: row.error ?? null,
    promptTokens: row.promptTokens ?? 0,
    completionTokens: row.completionTokens ?? 0,
    costUsd: row.costUsd ?? 0,
    attempts: row.attempts ?? 1,
    latencyMs: row.latencyMs ?? 0,
    subject: row.subject ?? null,
    replyForm: row.replyForm ?? null,
  });
}

/** Per-role sums over the recorded calls, optionally of one subject; sorted by role. */
export function usageByRole(db: Db, subject?: string) {
  return db
    .select({
      role: llmCalls.role,
      calls: sql<number>`count(*)`,
      ok: sql<number>`sum(${llmCalls.status} = 'ok')`,
      failed: sql<number>`sum(${llmCalls.status} = 'failed')`,
      attempts: sql<number>`sum(${llmCalls.attempts})`,
      promptTokens: sql<number>`sum(${llmCalls.promptTokens})`,
      completionTokens: sql<number>`sum(${llmCalls.completionTokens})`,
      costUsd: sql<number>`sum(${llmCalls.costUsd})`,
    })
    .from(llmCalls)
    .where(subject === undefined ? undefined : eq(llmCalls.subject, subject))
    .groupBy(llmCalls.role)
    .orderBy(llmCalls.role)
    .all();
}

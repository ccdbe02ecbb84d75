/**
 * Data access for llm_calls, the LLM call record and cache: one row per distinct request (keyed
 * by its cache key). An ok row is a cache hit for every later identical request; a failed row is
 * not, and the next try overwrites it. Tokens, cost and attempts add up over every try of the
 * same request, so the table keeps what was spent even on replies later superseded.
 * `reply_form` says how the JSON was found in the reply (json | fenced | prose | think |
 * structured); it is null for a failed call and for an intermediate tool-call step, whose
 * `parsed` holds `{ toolCalls }`. A web-research row's `parsed` holds `{ value, citations }`.
 */
import { eq, sql } from "drizzle-orm";
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
        replyForm: row.replyForm ?? null,
        promptTokens: sql`llm_calls.prompt_tokens + excluded.prompt_tokens`,
        completionTokens: sql`llm_calls.completion_tokens + excluded.completion_tokens`,
        costUsd: sql`llm_calls.cost_usd + excluded.cost_usd`,
        attempts: sql`llm_calls.attempts + excluded.attempts`,
        createdAt: sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
      },
    })
    .run();
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

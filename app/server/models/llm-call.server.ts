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
import { nowIso } from "./portable-sql.server.ts";

export type LlmCallRow = typeof llmCalls.$inferSelect;
export type NewLlmCallRow = Omit<typeof llmCalls.$inferInsert, "createdAt"> & {
  /** `request` already written as JSON, when the caller has it (the LLM client does): stored as it is. */
  requestText?: string;
};

// Looked up before every LLM call: prepared once per connection.
const byKey = preparedOnce((db) =>
  db
    .select()
    .from(llmCalls)
    .where(eq(llmCalls.cacheKey, sql.placeholder("key")))
    .prepare(),
);

/** The stored successful call for this key, if any. */
export async function findOkCall(db: Db, key: string): Promise<LlmCallRow | undefined> {
  const row = (await byKey(db).execute({ key }))[0];
  return row?.status === "ok" ? row : undefined;
}

/** What a cache hit needs of a stored ok call: not its request, the largest column. */
export type OkReply = Pick<
  LlmCallRow,
  "response" | "replyForm" | "baseUrl" | "promptTokens" | "completionTokens" | "costUsd" | "latencyMs"
>;

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
export async function findOkReply(db: Db, key: string): Promise<OkReply | undefined> {
  return (await okReplyByKey(db).execute({ key }))[0];
}

/*
 * Every LLM call is recorded before its result is used, so this upsert runs once per call: a
 * drizzle prepared query built once per connection (building the upsert each time cost more than
 * running it). Values are bare placeholders given as driver values (JSON columns as JSON text),
 * as for the bundle importer's high-volume rows. On conflict every column takes the new row's
 * value (`excluded`) except the spend, which adds up; created_at is refreshed.
 */
const raw = (name: keyof NewLlmCallRow) => sql`${sql.placeholder(name)}`;
const excluded = (column: string) => sql.raw(`excluded.${column}`);
const upsert = preparedOnce((db) =>
  db
    .insert(llmCalls)
    .values({
      cacheKey: raw("cacheKey"),
      role: raw("role"),
      baseUrl: raw("baseUrl"),
      model: raw("model"),
      request: raw("request"),
      response: raw("response"),
      parsed: raw("parsed"),
      status: raw("status"),
      error: raw("error"),
      promptTokens: raw("promptTokens"),
      completionTokens: raw("completionTokens"),
      costUsd: raw("costUsd"),
      attempts: raw("attempts"),
      latencyMs: raw("latencyMs"),
      subject: raw("subject"),
      replyForm: raw("replyForm"),
    })
    .onConflictDoUpdate({
      target: llmCalls.cacheKey,
      set: {
        role: excluded("role"),
        model: excluded("model"),
        request: excluded("request"),
        response: excluded("response"),
        parsed: excluded("parsed"),
        status: excluded("status"),
        error: excluded("error"),
        latencyMs: excluded("latency_ms"),
        subject: excluded("subject"),
        replyForm: excluded("reply_form"),
        promptTokens: sql`llm_calls.prompt_tokens + excluded.prompt_tokens`,
        completionTokens: sql`llm_calls.completion_tokens + excluded.completion_tokens`,
        costUsd: sql`llm_calls.cost_usd + excluded.cost_usd`,
        attempts: sql`llm_calls.attempts + excluded.attempts`,
        createdAt: nowIso(db),
      },
    })
    .prepare(),
);

/** JSON text for a json-mode column, as drizzle would store it (null stays NULL). */
const jsonText = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);

/** Stores a call's outcome, replacing an earlier outcome for the same key but adding up its spend. */
export async function recordCall(db: Db, row: NewLlmCallRow): Promise<void> {
  await upsert(db).execute({
    cacheKey: row.cacheKey,
    role: row.role,
    baseUrl: row.baseUrl,
    model: row.model,
    request: row.requestText ?? JSON.stringify(row.request),
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
export async function usageByRole(db: Db, subject?: string) {
  return await db
    .select({
      role: llmCalls.role,
      calls: sql<number>`count(*)`,
      // A CASE, not a summed comparison: PostgreSQL sums no booleans.
      ok: sql<number>`sum(case when ${llmCalls.status} = 'ok' then 1 else 0 end)`,
      failed: sql<number>`sum(case when ${llmCalls.status} = 'failed' then 1 else 0 end)`,
      attempts: sql<number>`sum(${llmCalls.attempts})`,
      promptTokens: sql<number>`sum(${llmCalls.promptTokens})`,
      completionTokens: sql<number>`sum(${llmCalls.completionTokens})`,
      costUsd: sql<number>`sum(${llmCalls.costUsd})`,
    })
    .from(llmCalls)
    .where(subject === undefined ? undefined : eq(llmCalls.subject, subject))
    .groupBy(llmCalls.role)
    .orderBy(llmCalls.role);
}

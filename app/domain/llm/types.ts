/**
 * The contract between the LLM layer (client, cache, retries, accounting) and the pipeline code
 * that uses it (simulation, evaluators, curation). Pipeline code depends on this file only, so it
 * can be tested against the local mock server through the real client.
 */
import type { ZodType } from "zod";
import type { LlmRole } from "../../llm-roles/registry.ts";
import type { ToolSpec } from "./tool-spec.ts";

/** The roles come from their registry: one folder per role in app/llm-roles. */
export { LLM_ROLES, type LlmRole } from "../../llm-roles/registry.ts";
export type { ToolSpec } from "./tool-spec.ts";

/**
 * Every request names its role, and the prompt template when it has one, in these headers: a
 * server may ignore them; the stand-in (app/server/llm/stand-in) answers by them.
 */
export const ROLE_HEADER = "x-socrates-role";
export const TEMPLATE_HEADER = "x-socrates-template";
/** The template `socrates llm check` names for its one-word request. */
export const CHECK_TEMPLATE = "connection-check";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface LlmRequest<T> {
  role: LlmRole;
  messages: ChatMessage[];
  /** The prompt template the messages come from (sent as a header, never part of the cache key). */
  template?: string;
  /** The reply must be JSON matching this schema; one repair retry shows the model its error. */
  schema: ZodType<T>;
  /** What the call is for (a run id, a scenario id); recorded with the call for accounting. */
  subject?: string;
  /** Overrides of the role's configured parameters for this call. */
  temperature?: number;
  maxTokens?: number;
  seed?: number;
  /** Overrides the role's configured model (e.g. `--backbone` on evaluate, `--mediator` on simulate). */
  model?: string;
  /**
   * Overrides the role's configured endpoint: a name in the configuration's `endpoints` (a benchmark plan's mediator on
   * its own endpoint).
   */
  endpoint?: string;
  /**
   * Send the schema as a structured-output JSON schema (`response_format: json_schema`); overrides
   * the role's `structuredOutput`. Refused by the endpoint → the call is retried without it.
   */
  structured?: boolean;
}

/** How the JSON object was found in a reply (stored in llm_calls.reply_form). */
export const REPLY_FORMS = ["json", "fenced", "prose", "think", "structured"] as const;
export type ReplyForm = (typeof REPLY_FORMS)[number];

export interface ToolRequest<T> extends LlmRequest<T> {
  tools: ToolSpec[];
  /**
   * Runs one tool call and returns its result as text for the model. A thrown error is shown to
   * the model as the tool's result ("error: …"), so it can try something else.
   */
  runTool: (name: string, args: Record<string, unknown>) => Promise<string>;
  /** Model turns before the final answer is forced (default 6); the last turn offers no tools. */
  maxSteps?: number;
}

export interface WebResearchRequest<T> extends LlmRequest<T> {
  /** The Responses API's built-in web search tool. */
  tool?: "web_search_preview";
}

export interface Citation {
  url: string;
  title?: string;
}

export type WebResearchResult<T> = LlmResult<T> & { citations: Citation[] };

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
}

/**
 * `latencyMs`: how long the endpoint took to answer, as recorded in llm_calls.latency_ms — the
 * original call's latency also when the reply comes from the cache, so a resumed run times its
 * calls as the first run did (a tool loop: the sum over its steps). `requests`: the HTTP requests
 * this call sent (retries and the repair request included; 0 from the cache, or when it waited on
 * an identical request in flight), so counts of calls can equal what the endpoint received.
 */
export type LlmResult<T> =
  | { ok: true; value: T; cached: boolean; usage: LlmUsage; model: string; latencyMs: number; requests: number }
  /** A failed call is recorded and returned, never thrown, so one bad reply does not stop a batch. */
  | { ok: false; error: string; cached: boolean; usage: LlmUsage; model: string; latencyMs: number; requests: number };

export interface Llm {
  call<T>(request: LlmRequest<T>): Promise<LlmResult<T>>;
  /**
   * The chat tool-call loop: the model calls `tools` (answered by `runTool`) until it replies with
   * the final JSON, parsed with the schema. Each HTTP step is cached and recorded like `call`.
   */
  callWithTools<T>(request: ToolRequest<T>): Promise<LlmResult<T>>;
  /**
   * One OpenAI Responses API request with the built-in web search tool; the reply's JSON parsed
   * with the schema, and the url citations it carries. Cached and recorded like `call`.
   */
  webResearch<T>(request: WebResearchRequest<T>): Promise<WebResearchResult<T>>;
  /** The model a role resolves to (after an override), for recording on runs and evaluations. */
  modelFor(role: LlmRole, override?: string): string;
  /** The sampling parameters a role's calls are sent with (null: the server's default), recorded on simulated runs. */
  samplingFor(role: LlmRole): { temperature: number | null; max_tokens: number | null };
}

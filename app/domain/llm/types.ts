/**
 * The contract between the LLM layer (client, cache, retries, accounting) and the pipeline code
 * that uses it (simulation, evaluators, curation). Pipeline code depends on this file only, so it
 * can be tested against the local mock server through the real client.
 */
import type { ZodType } from "zod";

/** Every role the benchmark configures a model for. */
export const LLM_ROLES = ["searcher", "writer", "party", "mediator", "evaluator", "baseline-judge", "mi-judge"] as const;
export type LlmRole = (typeof LLM_ROLES)[number];

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface LlmRequest<T> {
  role: LlmRole;
  messages: ChatMessage[];
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
}

export interface LlmUsage {
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
}

export type LlmResult<T> =
  | { ok: true; value: T; cached: boolean; usage: LlmUsage; model: string }
  /** A failed call is recorded and returned, never thrown, so one bad reply does not stop a batch. */
  | { ok: false; error: string; cached: boolean; usage: LlmUsage; model: string };

export interface Llm {
  call<T>(request: LlmRequest<T>): Promise<LlmResult<T>>;
  /** The model a role resolves to (after an override), for recording on runs and evaluations. */
  modelFor(role: LlmRole, override?: string): string;
}

/**
 * The LLM client behind the `Llm` contract: role → endpoint and model from the configuration,
 * JSON replies validated against the caller's schema (with one repair round), retries with
 * backoff, a concurrency limit per endpoint, and a SQLite cache that also records every call.
 * The parts: chat-call (call), tool-loop (callWithTools), web-research (webResearch), chat-step
 * and structured (one chat request and its reply format), endpoints (HTTP and retries),
 * context (planning, recording).
 */
import type { Db } from "../db.server.ts";
import { callBatches } from "./call-batches.server.ts";
import { chatCaller } from "./chat-call.server.ts";
import { roleConfig, roleSampling, type Env, type LlmConfig } from "./config.server.ts";
import type { ClientContext, LlmCallEvent, SharedRequests } from "./context.server.ts";
import { endpointPool } from "./endpoints.server.ts";
import { replyMemory } from "./reply-memory.server.ts";
import { toolCaller } from "./tool-loop.server.ts";
import { webResearcher } from "./web-research.server.ts";
import { DEFAULT_BACKOFF, type BackoffOptions } from "../../domain/llm/retry-policy.ts";
import type { Llm } from "../../domain/llm/types.ts";

export type { LlmCallEvent } from "./context.server.ts";

export interface CreateLlmOptions {
  db: Db;
  config: LlmConfig;
  onCall?: (event: LlmCallEvent) => void;
  /** Test seams: how to wait, the jitter source, and the backoff curve. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  backoff?: BackoffOptions;
  env?: Env;
  /** Leases on requests in flight shared with other processes (benchmark workers on one database). */
  shared?: SharedRequests;
}

export function createLlm(options: CreateLlmOptions): Llm {
  const { config } = options;
  const ctx: ClientContext = {
    db: options.db,
    config,
    onCall: options.onCall,
    endpointOf: endpointPool(config, options.env),
    retry: {
      sleep: options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
      random: options.random ?? Math.random,
      backoff: options.backoff ?? DEFAULT_BACKOFF,
    },
    replies: replyMemory(options.db),
    store: callBatches(options.db),
    shared: options.shared,
  };
  return {
    call: chatCaller(ctx),
    callWithTools: toolCaller(ctx),
    webResearch: webResearcher(ctx),
    modelFor: (role, override) => override ?? roleConfig(config, role).model,
    samplingFor: (role) => roleSampling(config, role),
  };
}

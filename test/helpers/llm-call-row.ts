/** An llm_calls row for repository tests: an ok reply of 10 + 5 tokens costing $0.25, changed by `over`. */
import type { NewLlmCallRow } from "../../app/server/models/llm-call.server.ts";

export const llmCallRow = (over: Partial<NewLlmCallRow> = {}): NewLlmCallRow => ({
  cacheKey: "k1",
  role: "mediator",
  baseUrl: "http://mock/v1",
  model: "m",
  request: { messages: [] },
  status: "ok",
  response: '{"echo":"hi"}',
  parsed: { echo: "hi" },
  promptTokens: 10,
  completionTokens: 5,
  costUsd: 0.25,
  attempts: 1,
  latencyMs: 30,
  subject: "run-1",
  ...over,
});

/**
 * The call ledger behind the benchmark's summary and spending cap: what counts as a call, a request, a cache hit and a
 * dollar.
 */
import { describe, expect, it } from "vitest";
import { callLedger } from "../../../app/domain/llm/call-ledger.ts";
import type { LlmResult } from "../../../app/domain/llm/types.ts";

const usage = (costUsd: number) => ({ promptTokens: 100, completionTokens: 10, costUsd });
const sent = (requests: number, costUsd: number, ok = true): LlmResult<unknown> =>
  ok
    ? { ok: true, value: {}, cached: false, usage: usage(costUsd), model: "m", latencyMs: 5, requests }
    : { ok: false, error: "bad reply", cached: false, usage: usage(costUsd), model: "m", latencyMs: 5, requests };
// A cache hit reports what the reply cost when it was made; the ledger must not count it again.
const cached: LlmResult<unknown> = {
  ok: true,
  value: {},
  cached: true,
  usage: usage(0.5),
  model: "m",
  latencyMs: 5,
  requests: 0,
};
// A call that waited on an identical request in flight, which failed: that request is the one counted.
const echo: LlmResult<unknown> = {
  ok: false,
  error: "bad reply",
  cached: false,
  usage: usage(0),
  model: "m",
  latencyMs: 5,
  requests: 0,
};

describe("callLedger", () => {
  it("counts calls sent, their HTTP requests and cost, and cache hits apart, by role", () => {
    const ledger = callLedger();
    ledger.record("party", sent(1, 0.25));
    ledger.record("party", sent(3, 0.75)); // two retries
    ledger.record("party", cached);
    ledger.record("evaluator", sent(2, 0.5, false)); // a repair request, still invalid
    ledger.record("evaluator", echo);
    ledger.record("emotion-judge", cached);
    expect(ledger.rows()).toEqual([
      {
        role: "emotion-judge",
        calls: 0,
        failed: 0,
        requests: 0,
        cached: 1,
        promptTokens: 0,
        completionTokens: 0,
        costUsd: 0,
      },
      {
        role: "evaluator",
        calls: 1,
        failed: 1,
        requests: 2,
        cached: 0,
        promptTokens: 100,
        completionTokens: 10,
        costUsd: 0.5,
      },
      {
        role: "party",
        calls: 2,
        failed: 0,
        requests: 4,
        cached: 1,
        promptTokens: 200,
        completionTokens: 20,
        costUsd: 1,
      },
    ]);
    expect(ledger.totals()).toEqual({
      calls: 3,
      failed: 1,
      requests: 6,
      cached: 2,
      promptTokens: 300,
      completionTokens: 30,
      costUsd: 1.5,
    });
  });
});

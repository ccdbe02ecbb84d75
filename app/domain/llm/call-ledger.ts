/**
 * One command's LLM calls, by role, from the results the calls returned: what was sent to the
 * endpoint (calls and the HTTP requests they took, retries and repair requests included), what the
 * cache answered, and what the new calls cost. The benchmark's spending cap and its summary read
 * the same ledger, so the dollars and the counts it prints cannot disagree.
 */
import type { LlmResult, LlmRole } from "./types.ts";

export interface RoleCalls {
  role: LlmRole;
  /** Calls answered by the endpoint (ok or failed): one llm_calls row each. */
  calls: number;
  failed: number;
  /** HTTP requests those calls made: what the endpoint received. */
  requests: number;
  /** Calls answered from the LLM cache (free, no request). */
  cached: number;
  promptTokens: number;
  completionTokens: number;
  /** Dollars of the calls sent now; cached calls count 0. */
  costUsd: number;
}

export type LedgerTotals = Omit<RoleCalls, "role">;

const empty = (): LedgerTotals => ({
  calls: 0,
  failed: 0,
  requests: 0,
  cached: 0,
  promptTokens: 0,
  completionTokens: 0,
  costUsd: 0,
});

export interface CallLedger {
  record(role: LlmRole, result: LlmResult<unknown>): void;
  /** One row per role that was called, sorted by role (as `socrates llm usage` sorts). */
  rows(): RoleCalls[];
  totals(): LedgerTotals;
}

export function callLedger(): CallLedger {
  const byRole = new Map<LlmRole, RoleCalls>();
  return {
    record(role, result) {
      const row = byRole.get(role) ?? { role, ...empty() };
      byRole.set(role, row);
      if (result.cached) {
        row.cached += 1;
        return;
      }
      // A call that only waited on an identical request in flight sent nothing: that request is counted.
      if (result.requests === 0) return;
      row.calls += 1;
      if (!result.ok) row.failed += 1;
      row.requests += result.requests;
      row.promptTokens += result.usage.promptTokens;
      row.completionTokens += result.usage.completionTokens;
      row.costUsd += result.usage.costUsd;
    },
    rows: () => [...byRole.values()].sort((a, b) => (a.role < b.role ? -1 : a.role > b.role ? 1 : 0)),
    totals() {
      const t = empty();
      const keys = Object.keys(t) as (keyof LedgerTotals)[];
      for (const r of byRole.values()) for (const k of keys) t[k] += r[k];
      return t;
    },
  };
}

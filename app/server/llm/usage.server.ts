/**
 * Token and cost accounting. `summariseUsage` reads what the database recorded (every distinct
 * request, with its spend over all tries); `UsageTally` counts one process's calls as they happen,
 * including cache hits, which the database does not record.
 */
import type { LedgerTotals, RoleCalls } from "../../domain/llm/call-ledger.ts";
import type { Db } from "../db.server.ts";
import { usageByRole } from "../models/llm-call.server.ts";
import type { LlmCallEvent } from "./client.server.ts";

export interface RoleUsage {
  role: string;
  /** Distinct requests recorded (ok + failed). */
  calls: number;
  ok: number;
  failed: number;
  /** HTTP requests made, retries and repair requests included. */
  attempts: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
}

/** Per-role totals from llm_calls, optionally for one subject (a run or scenario id); sorted by role. */
export async function summariseUsage(db: Db, options: { subject?: string } = {}): Promise<RoleUsage[]> {
  return (await usageByRole(db, options.subject)).map((r) => ({ ...r, costUsd: Number(r.costUsd) }));
}

export interface TallyRow {
  role: string;
  calls: number;
  cachedHits: number;
  failed: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
}

/**
 * Counts calls of one process; pass `tally.record` as `onCall` to createLlm. Tokens and cost count only what was spent
 * now.
 */
export class UsageTally {
  private readonly byRole = new Map<string, TallyRow>();

  readonly record = (event: LlmCallEvent): void => {
    const row = this.byRole.get(event.role) ?? {
      role: event.role,
      calls: 0,
      cachedHits: 0,
      failed: 0,
      promptTokens: 0,
      completionTokens: 0,
      costUsd: 0,
    };
    row.calls++;
    if (event.cached) row.cachedHits++;
    if (!event.ok) row.failed++;
    if (!event.cached) {
      row.promptTokens += event.usage.promptTokens;
      row.completionTokens += event.usage.completionTokens;
      row.costUsd += event.usage.costUsd;
    }
    this.byRole.set(event.role, row);
  };

  /** Dollars of the new (not cached) calls so far: a progress line's "$0.12 spent". */
  readonly costUsd = (): number => {
    let usd = 0;
    for (const row of this.byRole.values()) usd += row.costUsd;
    return usd;
  };

  rows(): TallyRow[] {
    return [...this.byRole.values()].sort((a, b) => (a.role < b.role ? -1 : 1));
  }
}

/** A plain-text table for terminals and reports. */
export function formatTable(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  return cells
    .map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join("  "))
    .join("\n");
}

export function formatUsage(rows: RoleUsage[]): string {
  const total = rows.reduce(
    (t, r) => ({
      calls: t.calls + r.calls,
      ok: t.ok + r.ok,
      failed: t.failed + r.failed,
      attempts: t.attempts + r.attempts,
      promptTokens: t.promptTokens + r.promptTokens,
      completionTokens: t.completionTokens + r.completionTokens,
      costUsd: t.costUsd + r.costUsd,
    }),
    { calls: 0, ok: 0, failed: 0, attempts: 0, promptTokens: 0, completionTokens: 0, costUsd: 0 },
  );
  const line = (role: string, r: Omit<RoleUsage, "role">) => [
    role,
    r.calls,
    r.ok,
    r.failed,
    r.attempts,
    r.promptTokens,
    r.completionTokens,
    `$${r.costUsd.toFixed(4)}`,
  ];
  return formatTable(
    ["role", "calls", "ok", "failed", "http requests", "prompt tokens", "completion tokens", "cost"],
    [...rows.map((r) => line(r.role, r)), line("total", total)],
  );
}

/**
 * One command's calls by role (a `CallLedger`), in the columns of `formatUsage`, so each row can be
 * set beside `socrates llm usage`: after a command on a fresh database the two agree row by row.
 */
export function formatCallLedger(rows: RoleCalls[], total: LedgerTotals): string {
  const line = (role: string, r: LedgerTotals) => [
    role,
    r.calls,
    r.failed,
    r.requests,
    r.cached,
    r.promptTokens,
    r.completionTokens,
    `$${r.costUsd.toFixed(4)}`,
  ];
  return formatTable(
    ["role", "calls", "failed", "http requests", "from cache", "prompt tokens", "completion tokens", "cost"],
    [...rows.map((r) => line(r.role, r)), line("total", total)],
  );
}

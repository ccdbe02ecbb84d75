/**
 * The `--max-cost` guard, and the stop switch, as a wrapper around the `Llm` contract. Before a
 * call goes out it asks the LLM cache whether the request is already answered (free: passed
 * through); otherwise, when the dollars spent plus those reserved by calls in flight plus this
 * call's expected cost would pass the cap, no call is started: the wrapper throws
 * `BenchmarkStopped`, which abandons the run or evaluation in progress (both are stored whole or
 * not at all). A stop signal (Ctrl-C) throws the same way, for calls not yet started. Every result
 * goes into one call ledger, by role: the dollars the cap adds up and the calls a summary prints
 * are read from it, so they count the same calls.
 */
import { expectedCallUsd, type CallKind } from "../../domain/benchmark/cost.ts";
import { callLedger, type CallLedger } from "../../domain/llm/call-ledger.ts";
import type { Llm, LlmRequest, LlmResult, LlmRole } from "../../domain/llm/types.ts";
import type { Db } from "../db.server.ts";
import type { LlmConfig } from "../llm/config.server.ts";
import { planFor } from "../llm/context.server.ts";
import { findOkCall } from "../models/llm-call.server.ts";

export class BenchmarkStopped extends Error {
  constructor(readonly why: "cap" | "signal") {
    super(why === "cap" ? "the spending cap was reached" : "stopped");
    this.name = "BenchmarkStopped";
  }
}

export interface SpendGuard {
  llm: Llm;
  /** Dollars the endpoint reported for calls made through this wrapper (cached calls count 0): the ledger's total. */
  spentUsd(): number;
  /** Every call made through this wrapper, by role. */
  ledger: CallLedger;
  /** Set once a call was refused for the cap. */
  capReached(): boolean;
  /**
   * Resolves once every call already sent has come back. A stop abandons the run in progress, but
   * a request on the wire is paid for: waiting lets the client record its reply, so the resume
   * finds it in the cache instead of paying for it again.
   */
  settled(): Promise<void>;
}

const KIND_OF: Partial<Record<LlmRole, CallKind>> = { party: "party", mediator: "mediator-how", evaluator: "judge" };

export function spendGuard(options: {
  llm: Llm;
  db: Db;
  config: LlmConfig;
  maxCostUsd?: number;
  signal?: AbortSignal;
}): SpendGuard {
  const { llm, db, config, maxCostUsd, signal } = options;
  const ledger = callLedger();
  const spent = () => ledger.totals().costUsd;
  let reserved = 0;
  let reached = false;
  const inFlight = new Set<Promise<unknown>>();

  /** The call's expected dollars if it must go to the endpoint, or 0 when the cache answers it. */
  async function expected(request: LlmRequest<unknown>): Promise<number> {
    if (maxCostUsd === undefined) return 0;
    const plan = planFor(config, request);
    if (await findOkCall(db, plan.key)) return 0;
    const chars = request.messages.reduce((n, m) => n + m.content.length, 0);
    return expectedCallUsd(config.prices[plan.model], chars, KIND_OF[request.role] ?? "judge");
  }

  async function guarded<R extends LlmResult<unknown>>(
    request: LlmRequest<unknown>,
    send: () => Promise<R>,
  ): Promise<R> {
    const stopIfStopped = () => {
      if (signal?.aborted) throw new BenchmarkStopped("signal");
      if (reached) throw new BenchmarkStopped("cap");
    };
    stopIfStopped();
    const cost = await expected(request);
    // Again after the look-up: a stop may have come while it waited. From here to `send` nothing awaits.
    stopIfStopped();
    if (maxCostUsd !== undefined && cost > 0 && spent() + reserved + cost > maxCostUsd) {
      reached = true;
      throw new BenchmarkStopped("cap");
    }
    reserved += cost;
    const sent = send();
    inFlight.add(sent);
    try {
      const result = await sent;
      ledger.record(request.role, result);
      return result;
    } finally {
      inFlight.delete(sent);
      reserved -= cost;
    }
  }

  return {
    llm: {
      call: (request) => guarded(request, () => llm.call(request)),
      callWithTools: (request) => guarded(request, () => llm.callWithTools(request)),
      webResearch: (request) => guarded(request, () => llm.webResearch(request)),
      modelFor: (role, override) => llm.modelFor(role, override),
      samplingFor: (role) => llm.samplingFor(role),
    },
    spentUsd: spent,
    ledger,
    capReached: () => reached,
    settled: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** An `Llm` whose requests of some roles go to a named endpoint (a plan's backbone on its own endpoint). */
export function routedLlm(llm: Llm, endpoints: Partial<Record<LlmRole, string | undefined>>): Llm {
  const route = <T extends LlmRequest<unknown>>(request: T): T => {
    const endpoint = request.endpoint ?? endpoints[request.role];
    return endpoint === undefined ? request : { ...request, endpoint };
  };
  return {
    call: (request) => llm.call(route(request)),
    callWithTools: (request) => llm.callWithTools(route(request)),
    webResearch: (request) => llm.webResearch(route(request)),
    modelFor: (role, override) => llm.modelFor(role, override),
    samplingFor: (role) => llm.samplingFor(role),
  };
}

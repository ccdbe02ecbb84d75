/**
 * The longest dependent chain of LLM calls in a bench job: a lower bound on its wall time that no
 * number of endpoint slots can beat, beside Σ latency / concurrency.
 *
 * How dependency is decided (exact for what the pipeline ran, no guessing from timestamps):
 * - The bench wraps the Llm it hands to the pipeline (`tracedLlm`) and notes, for every `call`,
 *   its subject (the run id the pipeline passes), its role, the request's key (bench/chain-key.ts)
 *   and two positions in one logical clock: when the pipeline issued it and when its answer came
 *   back to the pipeline.
 * - Calls of one run are grouped in stages: its simulation (party and mediator calls), then each
 *   evaluation role (evaluator, baseline-judge, …) as a branch that starts after the simulation and
 *   runs beside the others. Within a stage, call B depends on call A when the pipeline issued B
 *   after A's answer had come back (a run's turns; per-turn evaluation's agreement round after its
 *   attitude round). A run's chain = its simulation's longest path + its longest evaluation branch.
 * - Each call weighs the stand-in's service time (responded − received, from its own records) of
 *   the request that answered it, whichever run sent it: a cache hit or a wait on an identical
 *   request in flight still had to be served before the run could go on. Retries of one request and
 *   a repair round add to it. Calls no request answered in this job weigh 0.
 * The chain counts the stand-in's service times only: not client-side overhead, not time queued
 * for a slot, not the pipeline's own work between calls.
 */
import type { Llm, LlmRequest, LlmRole } from "../app/domain/llm/types.ts";
import { roleConfig, type LlmConfig } from "../app/server/llm/config.server.ts";
import { requestKey, type ServiceRecord } from "./chain-key.ts";

export interface TracedCall {
  subject: string;
  role: LlmRole;
  key: string;
  issued: number;
  returned: number;
}

const SIMULATION_ROLES: ReadonlySet<LlmRole> = new Set(["party", "mediator"]);

/**
 * The Llm with every `call` noted in `calls` (tool loops and web research pass through untraced: these benches make
 * none).
 */
export function tracedLlm(llm: Llm, config: LlmConfig): { llm: Llm; calls: TracedCall[] } {
  const calls: TracedCall[] = [];
  let clock = 0;
  const traced = async <T>(request: LlmRequest<T>) => {
    // The role's settings as planFor applies them, without its cache key: the tracer's own CPU counts as the runner's.
    const role = roleConfig(config, request.role);
    const key = requestKey({
      model: request.model ?? role.model,
      seed: request.seed ?? role.seed,
      temperature: request.temperature ?? role.temperature,
      maxTokens: request.maxTokens ?? role.maxTokens,
      messages: request.messages,
    });
    const issued = clock++;
    try {
      return await llm.call(request);
    } finally {
      calls.push({ subject: request.subject ?? "(no subject)", role: request.role, key, issued, returned: clock++ });
    }
  };
  return {
    llm: {
      ...llm,
      call: traced,
      callWithTools: (r) => llm.callWithTools(r),
      webResearch: (r) => llm.webResearch(r),
      modelFor: (role, o) => llm.modelFor(role, o),
    },
    calls,
  };
}

/** Service time per request key, from the stand-in's records; a repair round counts toward the request it repairs. */
export function serviceTimes(
  records: ServiceRecord[],
  calls: TracedCall[],
): { byKey: Map<string, number>; unmatched: number } {
  const known = new Set(calls.map((c) => c.key));
  const byKey = new Map<string, number>();
  let unmatched = 0;
  for (const r of records) {
    const key = known.has(r.key) ? r.key : r.repairOf !== undefined && known.has(r.repairOf) ? r.repairOf : undefined;
    if (key === undefined) unmatched++;
    else byKey.set(key, (byKey.get(key) ?? 0) + r.ms);
  }
  return { byKey, unmatched };
}

interface Path {
  ms: number;
  roles: LlmRole[];
}

/** The heaviest path through one stage's calls, where B follows A when B was issued after A returned. */
function stagePath(calls: TracedCall[], weight: (c: TracedCall) => number): Path {
  const sorted = [...calls].sort((a, b) => a.issued - b.issued);
  const best: Path[] = [];
  sorted.forEach((c, i) => {
    let before: Path = { ms: 0, roles: [] };
    for (let j = 0; j < i; j++) if (sorted[j].returned < c.issued && best[j].ms >= before.ms) before = best[j];
    best.push({ ms: before.ms + weight(c), roles: [...before.roles, c.role] });
  });
  return best.reduce((a, b) => (b.ms > a.ms ? b : a), { ms: 0, roles: [] });
}

export interface Chain {
  ms: number;
  subject: string;
  calls: number;
  /** Calls on the chain per role, e.g. { party: 20, mediator: 9, evaluator: 1 }. */
  byRole: Record<string, number>;
}

function groupInto<T>(groups: Map<string, T[]>, key: string, item: T): void {
  const group = groups.get(key);
  if (group) group.push(item);
  else groups.set(key, [item]);
}

/** The longest chain over all runs of the job. */
export function longestChain(calls: TracedCall[], serviceMs: Map<string, number>): Chain {
  const weight = (c: TracedCall) => serviceMs.get(c.key) ?? 0;
  const runs = new Map<string, TracedCall[]>();
  for (const c of calls) groupInto(runs, c.subject, c);
  let longest: Chain = { ms: 0, subject: "", calls: 0, byRole: {} };
  for (const [subject, own] of runs) {
    const stages = new Map<string, TracedCall[]>();
    for (const c of own) {
      const stage = SIMULATION_ROLES.has(c.role) ? "simulation" : c.role;
      groupInto(stages, stage, c);
    }
    const simulation = stagePath(stages.get("simulation") ?? [], weight);
    stages.delete("simulation");
    const evaluation = [...stages.values()]
      .map((s) => stagePath(s, weight))
      .reduce((a, b) => (b.ms > a.ms ? b : a), { ms: 0, roles: [] } as Path);
    const roles = [...simulation.roles, ...evaluation.roles];
    const ms = simulation.ms + evaluation.ms;
    if (ms > longest.ms) {
      const byRole: Record<string, number> = {};
      for (const r of roles) byRole[r] = (byRole[r] ?? 0) + 1;
      longest = { ms, subject, calls: roles.length, byRole };
    }
  }
  return longest;
}

/** "run-x: 31 calls (party 20, mediator 9, evaluator 2)". */
export function describeChain(chain: Chain): string {
  const roles = Object.entries(chain.byRole)
    .map(([role, n]) => `${role} ${n}`)
    .join(", ");
  return `${chain.subject}: ${chain.calls} calls (${roles})`;
}

/**
 * The figures both benches print: the two lower bounds, the ideal (the larger), wall / ideal, and which run the chain
 * is.
 */
export function bounds(o: {
  wallMs: number;
  latencySumMs: number;
  concurrency: number;
  chain?: Chain;
  unmatched?: number;
  seconds: (ms: number) => string;
}): { idealMs: number; rows: [string, string][]; note: string } {
  const spread = o.latencySumMs / o.concurrency;
  const chainMs = o.chain?.ms ?? 0;
  const idealMs = Math.max(spread, chainMs);
  const note = o.chain
    ? `Longest dependent chain: ${describeChain(o.chain)}, ${o.seconds(chainMs)} of stand-in service time (client overhead and queueing not counted)` +
      (o.unmatched ? `; ${o.unmatched} stand-in requests matched no traced call.` : ".")
    : "Longest dependent chain: not traced (the calls were made in other processes); the ideal is Σ latency alone.";
  const per = `Σ latency / ${o.concurrency}`;
  return {
    idealMs,
    rows: [
      [per, o.seconds(spread)],
      [`wall / (${per})`, `${(o.wallMs / spread).toFixed(2)}×`],
      ["longest dependent chain", o.chain ? `${o.seconds(chainMs)} (${o.chain.calls} calls)` : "not traced"],
      [`ideal = max(${per}, chain)`, `${o.seconds(idealMs)} (${chainMs > spread ? "the chain" : per} decides)`],
      ["wall / ideal", `${(o.wallMs / idealMs).toFixed(2)}×`],
    ],
    note,
  };
}

/**
 * Pure turn logic of a simulated run (spec: "Trajectory"): who speaks next, when a run ends,
 * run ids and seeds. No I/O; the engine in app/server/pipeline/simulate.server.ts drives it.
 */
import type { Outcome, Signal, Turn } from "../bundle.ts";

export const DEFAULT_TURN_BUDGET = 30;
export const DEFAULT_BASE_SEED = 1;

/** The party who speaks the n-th party turn (0-based): parties take turns in a fixed cycle. */
export function partyForTurn(partyOrder: readonly string[], partyTurnIndex: number): string {
  if (partyOrder.length === 0) throw new Error("party order is empty");
  return partyOrder[partyTurnIndex % partyOrder.length];
}

export function countPartyTurns(turns: readonly Pick<Turn, "role">[]): number {
  return turns.filter((t) => t.role === "party").length;
}

/**
 * How a run ends after its latest turn, or null if it goes on.
 *
 * - `impasse` as soon as any party signals walk-away.
 * - `resolved` when every party's most recent signal is consensus. A party that signalled
 *   consensus and later said "continue" has taken its agreement back, so it must signal again;
 *   this keeps "every party agrees" true at the moment the run ends.
 * - `budget` when the party-turn budget is spent without either.
 * The order matters only on the last turn: a walk-away beats consensus, and both beat budget.
 */
export function outcomeAfter(
  partyOrder: readonly string[],
  turns: readonly Pick<Turn, "role" | "speaker" | "signal">[],
  budget: number,
): Outcome | null {
  const latest = new Map<string, Signal>();
  for (const t of turns) {
    if (t.role !== "party") continue;
    if (t.signal === "walk-away") return "impasse";
    latest.set(t.speaker, t.signal ?? "continue");
  }
  if (partyOrder.every((p) => latest.get(p) === "consensus")) return "resolved";
  if (countPartyTurns(turns) >= budget) return "budget";
  return null;
}

/** 32-bit FNV-1a: a small, stable hash for ids and seeds (not for security). */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A run's seed from the batch's base seed and the run index; a matched pair shares it. */
export function runSeed(baseSeed: number, runIndex: number): number {
  return fnv1a(`run:${baseSeed}:${runIndex}`) & 0x7fffffff;
}

export type CallKind =
  | "party"
  | "mediator-when"
  | "mediator-how"
  // The socially intelligent mediator's other steps (social-mediator.ts).
  | "mediator-tracker"
  | "mediator-rate"
  | "mediator-voice"
  | "mediator-close";

/**
 * The seed of one LLM call, from the run seed, the call kind and the party-turn count so far.
 * It leaves out whether the run is mediated, so the two runs of a matched pair make the same
 * party calls (and share cached replies) until the mediator first speaks.
 */
export function callSeed(seed: number, kind: CallKind, partyTurnsSoFar: number): number {
  return fnv1a(`call:${seed}:${kind}:${partyTurnsSoFar}`) & 0x7fffffff;
}

const ID_MAX = 120;

/** Replaces characters outside the bundle id charset; long ids keep a hash of the full text. */
export function sanitiseId(raw: string): string {
  let id = raw.replace(/[^A-Za-z0-9._:-]/g, "-");
  if (!/^[A-Za-z0-9]/.test(id)) id = `x${id}`;
  if (id.length > ID_MAX) id = `${id.slice(0, ID_MAX - 9)}-${fnv1a(raw).toString(16).padStart(8, "0")}`;
  return id;
}

export function matchedPairId(mediatedRunId: string): string {
  return sanitiseId(`${mediatedRunId}:pair`);
}

export interface CallEstimate {
  runs: number;
  partyCalls: number;
  mediatorWhenCalls: number;
  mediatorHowCalls: number;
  total: number;
}

/**
 * The most LLM calls a set of runs can make (repair retries by the client not included):
 * every party turn, plus for a mediated run a "when" decision after every party turn but the
 * last and, at worst, a "how" call after each of them (`mediatorCalls`: how many calls each is for
 * the mediator's mode, one and one by default; mediator-settings.ts).
 */
export function estimateCalls(input: {
  mediatedRuns: number;
  unmediatedRuns: number;
  budget: number;
  mediatorCalls?: { decision: number; intervention: number };
}): CallEstimate {
  const { mediatedRuns, unmediatedRuns, budget } = input;
  const shape = input.mediatorCalls ?? { decision: 1, intervention: 1 };
  const partyCalls = (mediatedRuns + unmediatedRuns) * budget;
  const gaps = Math.max(0, budget - 1);
  const mediatorWhenCalls = mediatedRuns * gaps * shape.decision;
  const mediatorHowCalls = mediatedRuns * gaps * shape.intervention;
  return {
    runs: mediatedRuns + unmediatedRuns,
    partyCalls,
    mediatorWhenCalls,
    mediatorHowCalls,
    total: partyCalls + mediatorWhenCalls + mediatorHowCalls,
  };
}

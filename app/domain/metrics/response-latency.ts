// Response Latency (RL), ProMediate mediator-level metric on group consensus G[0..T].
import {
  FLOAT_TOLERANCE,
  assertNonNegativeNumber,
  assertPositiveInteger,
  assertTurnList,
  firstTurnAfter,
  meanOrNull,
  seriesLastTurn,
} from "./numeric.ts";

export interface ResponseLatencyOptions {
  /** G must fall by more than tau below G[t] … */
  tau?: number;
  /** … within this many turns after t. */
  window?: number;
}

export interface LatencyEvent {
  /** Earliest start turn t of the event (every start that shares its drop turn is merged into it). */
  t: number;
  /** Drop turn u: the first turn in (t, t + window] with G[u] < G[t] − τ. */
  u: number;
  /** Every start turn whose drop turn is u, in order (t is the first). */
  starts: number[];
  /** Turns from u to the next mediator turn after u; Infinity when the mediator never speaks after u. */
  latency: number;
}

export interface ResponseLatencyResult {
  /** Mean of the finite latencies (turns); null when no event was responded to. */
  meanLatency: number | null;
  /** Share of events with no mediator turn after their drop turn; null when there are no events. */
  unrespondedShare: number | null;
  reason?: "no drop events" | "no drop event responded to";
  events: LatencyEvent[];
  eventCount: number;
  responded: number;
  unresponded: number;
  /** Mean mediator decision wall-clock seconds; null without data. */
  meanDecisionSeconds: number | null;
  decisionSamples: number;
  tau: number;
  window: number;
}

export const DEFAULT_RL_TAU = 0.1;
export const DEFAULT_RL_WINDOW = 10;

/** One start turn t with its drop turn u. */
export interface DropStart {
  t: number;
  u: number;
}

/**
 * Every turn t = 1..T−1 that starts a drop, with its drop turn u = the first turn in
 * (t, t + window] (clipped to T) with G[u] < G[t] − τ. Turn 0 is the state before any turn,
 * not a turn, so it starts nothing (as CC's windows start at G[1]).
 */
export function dropStarts(groupConsensus: readonly number[], tau: number, window: number): DropStart[] {
  const lastTurn = groupConsensus.length - 1;
  const starts: DropStart[] = [];
  for (let t = 1; t < lastTurn; t++) {
    const horizon = Math.min(t + window, lastTurn);
    for (let u = t + 1; u <= horizon; u++) {
      // "More than τ": strict, with a tolerance so a fall of exactly τ is not counted by rounding.
      if (groupConsensus[t] - groupConsensus[u] > tau + FLOAT_TOLERANCE) {
        starts.push({ t, u });
        break;
      }
    }
  }
  return starts;
}

/** Starts that share a drop turn are one event, named by the earliest start; events in order of u. */
export function mergeDropStarts(starts: readonly DropStart[]): { t: number; u: number; starts: number[] }[] {
  const byDropTurn = new Map<number, number[]>();
  for (const { t, u } of starts) {
    const list = byDropTurn.get(u);
    if (list) list.push(t);
    else byDropTurn.set(u, [t]);
  }
  return [...byDropTurn]
    .sort(([a], [b]) => a - b)
    .map(([u, ts]) => ({ t: Math.min(...ts), u, starts: [...ts].sort((a, b) => a - b) }));
}

export function responseLatency(
  groupConsensus: readonly number[],
  mediatorTurns: readonly number[],
  options: ResponseLatencyOptions = {},
  decisionSeconds?: readonly number[],
): ResponseLatencyResult {
  const tau = options.tau ?? DEFAULT_RL_TAU;
  const window = options.window ?? DEFAULT_RL_WINDOW;
  assertNonNegativeNumber(tau, "tau");
  assertPositiveInteger(window, "window");
  const lastTurn = seriesLastTurn(groupConsensus, "groupConsensus");
  assertTurnList(mediatorTurns, lastTurn, "mediatorTurns");
  decisionSeconds?.forEach((s, i) => assertNonNegativeNumber(s, `decisionSeconds[${i}]`));

  // The timer starts at the drop turn u, not at the start t: the mediator cannot answer a fall
  // before it has happened.
  const events = mergeDropStarts(dropStarts(groupConsensus, tau, window)).map((e): LatencyEvent => {
    const m = firstTurnAfter(mediatorTurns, e.u);
    return { ...e, latency: m === null ? Infinity : m - e.u };
  });
  const finite = events.flatMap((e) => (Number.isFinite(e.latency) ? [e.latency] : []));
  const unresponded = events.length - finite.length;

  const result: ResponseLatencyResult = {
    meanLatency: meanOrNull(finite),
    unrespondedShare: events.length === 0 ? null : unresponded / events.length,
    events,
    eventCount: events.length,
    responded: finite.length,
    unresponded,
    meanDecisionSeconds: meanOrNull(decisionSeconds ?? []),
    decisionSamples: decisionSeconds?.length ?? 0,
    tau,
    window,
  };
  if (events.length === 0) result.reason = "no drop events";
  else if (finite.length === 0) result.reason = "no drop event responded to";
  return result;
}

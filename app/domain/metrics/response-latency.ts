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
  /** Turn where the drop event starts. */
  t: number;
  /** Turns from t to the next mediator turn after t; Infinity when the mediator never speaks again. */
  latency: number;
}

export interface ResponseLatencyResult {
  /** Mean of the finite latencies (turns); null when no event was responded to. */
  meanLatency: number | null;
  /** Share of events with no later mediator turn; null when there are no events. */
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

/**
 * Every turn t = 1..T−1 whose next `window` turns contain some G[t'] < G[t] − τ starts an event.
 * Consecutive turns can each start an event for the same fall; all are counted, as the
 * definition is per starting turn.
 */
export function dropEventStarts(groupConsensus: readonly number[], tau: number, window: number): number[] {
  const lastTurn = groupConsensus.length - 1;
  const starts: number[] = [];
  for (let t = 1; t < lastTurn; t++) {
    const horizon = Math.min(t + window, lastTurn);
    for (let later = t + 1; later <= horizon; later++) {
      // "More than τ": strict, with a tolerance so a fall of exactly τ is not counted by rounding.
      if (groupConsensus[t] - groupConsensus[later] > tau + FLOAT_TOLERANCE) {
        starts.push(t);
        break;
      }
    }
  }
  return starts;
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

  const events = dropEventStarts(groupConsensus, tau, window).map((t): LatencyEvent => {
    const m = firstTurnAfter(mediatorTurns, t);
    return { t, latency: m === null ? Infinity : m - t };
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

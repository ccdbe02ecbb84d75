// Intervention Timeliness (IT), SoCRATES metric on the consensus series C[0..T].
import {
  FLOAT_TOLERANCE,
  assertPositiveInteger,
  assertNonNegativeNumber,
  assertTurnList,
  firstTurnAfter,
  meanOrNull,
  seriesLastTurn,
} from "./numeric.ts";

export interface TimelinessOptions {
  /** Minimum fall of C from the previous turn that makes a drop event. */
  delta?: number;
  /** Response window W in turns. */
  window?: number;
}

export interface DropEventTimeliness {
  /** Turn of the drop (C[t] ≤ C[t−1] − δ). */
  t: number;
  /** First mediator turn after t, or null when the mediator never speaks again. */
  responseTurn: number | null;
  /** d = responseTurn − t, or null when there is no later mediator turn. */
  d: number | null;
  /** IT_e, or null when the event is censored. */
  score: number | null;
  censored: boolean;
}

export interface TimelinessResult {
  /** Mean IT_e over non-censored events; null when there is none. */
  it: number | null;
  reason?: "no drop events" | "all drop events censored";
  events: DropEventTimeliness[];
  /** Events that entered the mean. */
  counted: number;
  censored: number;
  interventions: number;
  delta: number;
  window: number;
}

export const DEFAULT_TIMELINESS_DELTA = 0.05;
export const DEFAULT_TIMELINESS_WINDOW = 10;

export function interventionTimeliness(
  consensus: readonly number[],
  mediatorTurns: readonly number[],
  options: TimelinessOptions = {},
): TimelinessResult {
  const delta = options.delta ?? DEFAULT_TIMELINESS_DELTA;
  const window = options.window ?? DEFAULT_TIMELINESS_WINDOW;
  assertNonNegativeNumber(delta, "delta");
  assertPositiveInteger(window, "window");
  const lastTurn = seriesLastTurn(consensus, "consensus");
  assertTurnList(mediatorTurns, lastTurn, "mediatorTurns");

  const events: DropEventTimeliness[] = [];
  for (let t = 1; t <= lastTurn; t++) {
    // "C[t] ≤ C[t−1] − δ", with a tolerance so a fall of exactly δ still counts after rounding.
    const isDrop = consensus[t] <= consensus[t - 1] - delta + FLOAT_TOLERANCE;
    if (!isDrop) continue;
    const responseTurn = firstTurnAfter(mediatorTurns, t);
    if (responseTurn === null) {
      // No response at all: only a score of 0 if the whole window was observed.
      const censored = t + window > lastTurn;
      events.push({ t, responseTurn, d: null, score: censored ? null : 0, censored });
      continue;
    }
    const d = responseTurn - t;
    const score = d <= window ? 1 - (d - 1) / window : 0;
    events.push({ t, responseTurn, d, score, censored: false });
  }

  const scores = events.flatMap((e) => (e.score === null ? [] : [e.score]));
  const censored = events.length - scores.length;
  const it = meanOrNull(scores);
  const result: TimelinessResult = {
    it,
    events,
    counted: scores.length,
    censored,
    interventions: mediatorTurns.length,
    delta,
    window,
  };
  if (it === null) result.reason = events.length === 0 ? "no drop events" : "all drop events censored";
  return result;
}

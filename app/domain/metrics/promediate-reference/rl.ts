/**
 * RL as ProMediate's released code computes it: every index i ≥ window of G[0..T] with
 * G[i − window] − G[i] > τ is an event of its own (points exactly `window` apart, overlapping
 * events not merged); its latency is the first mediator position after i minus i (positions read
 * one turn early, ./positions.ts); an event no mediator position follows is left out. RL is the
 * mean latency, undefined when no event has one (the code gives −1).
 */
import { referencePositions, sumOf } from "./positions.ts";

export interface ReferenceRlResult {
  value: number | null;
  detail: {
    events: number;
    responded: number;
    perEvent: { i: number; latency: number | null }[];
    reason?: string;
  };
}

export function referenceResponseLatency(
  consensus: readonly number[],
  mediatorTurns: readonly number[],
  tau: number,
  window: number,
): ReferenceRlResult {
  const positions = referencePositions(mediatorTurns).map((p) => p.position);
  const perEvent: { i: number; latency: number | null }[] = [];
  for (let i = window; i < consensus.length; i++) {
    if (!(consensus[i - window] - consensus[i] > tau)) continue;
    const next = positions.find((p) => p > i);
    perEvent.push({ i, latency: next === undefined ? null : next - i });
  }
  const latencies = perEvent.flatMap((e) => (e.latency === null ? [] : [e.latency]));
  const detail = { events: perEvent.length, responded: latencies.length, perEvent };
  if (latencies.length === 0) {
    const reason = perEvent.length === 0 ? "no drop events" : "no drop event responded to";
    return { value: null, detail: { ...detail, reason } };
  }
  return { value: sumOf(latencies) / latencies.length, detail };
}

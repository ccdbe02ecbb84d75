/**
 * ME as ProMediate's released code computes it. A mediator turn is read at position p = m − 1
 * (./positions.ts) and skipped when p ≤ span or p ≥ T − span, or when it names no topic. For each
 * named topic, two-point slopes: before = (G_k[p] − G_k[p − span]) / span, after = (G_k[p + span] −
 * G_k[p]) / span; the intervention's value is the mean of after − before over its topics, ME the
 * mean over the interventions not skipped (undefined when none; the code gives −1). The code asks a
 * model which topics the turn addresses; the project uses the turn's stored mentioned_topics.
 */
import { meanOf, referencePositions } from "./positions.ts";

export interface ReferenceIntervention {
  turn: number;
  position: number;
  /** Null when skipped, with why. */
  me: number | null;
  skipped?: "near an end" | "names no topic";
}

export interface ReferenceMeResult {
  value: number | null;
  detail: {
    interventions: number;
    interventionsUsed: number;
    perIntervention: ReferenceIntervention[];
    reason?: string;
  };
}

function interventionValue(
  seriesByTopic: Readonly<Record<string, readonly number[]>>,
  topics: readonly string[],
  position: number,
  span: number,
): number | null {
  const known = topics.filter((k) => k in seriesByTopic);
  // The code would fail on a turn whose topics are all unknown (a mean of nothing): skipped here.
  if (known.length === 0) return null;
  return meanOf(
    known.map((k) => {
      const s = seriesByTopic[k];
      return (s[position + span] - s[position]) / span - (s[position] - s[position - span]) / span;
    }),
  );
}

export function referenceMediatorEffectiveness(
  seriesByTopic: Readonly<Record<string, readonly number[]>>,
  targets: readonly { turn: number; topics: readonly string[] }[],
  lastTurn: number,
  span: number,
): ReferenceMeResult {
  const topicsAt = new Map(targets.map((t) => [t.turn, t.topics]));
  const perIntervention = referencePositions(targets.map((t) => t.turn)).map(
    ({ turn, position }): ReferenceIntervention => {
      if (position <= span || position >= lastTurn - span) return { turn, position, me: null, skipped: "near an end" };
      const me = interventionValue(seriesByTopic, topicsAt.get(turn) ?? [], position, span);
      return me === null ? { turn, position, me, skipped: "names no topic" } : { turn, position, me };
    },
  );
  const used = perIntervention.flatMap((p) => (p.me === null ? [] : [p.me]));
  const detail = { interventions: perIntervention.length, interventionsUsed: used.length, perIntervention };
  if (used.length === 0) return { value: null, detail: { ...detail, reason: "no intervention away from the ends" } };
  return { value: meanOf(used), detail };
}

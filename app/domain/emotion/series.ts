/**
 * Emotion on the turn axis (docs/metrics-emotion.md, "Series"): each party's score carried
 * forward from its own turns, on the unit scale [0, 1], and the group's mean once every party
 * has spoken. Nothing is filled in before a party's first report: those turns are null.
 */
import { unitEmotion } from "./scale.ts";
import type { EmotionPoint, EmotionTrajectory } from "./trajectory.ts";

export type NullableSeries = (number | null)[];

/** E_p[t], t = 0..T: the party's latest score at or before t, /100; null before its first report. */
export function partyEmotionSeries(points: readonly EmotionPoint[], totalTurns: number): NullableSeries {
  const series: NullableSeries = new Array<number | null>(totalTurns + 1).fill(null);
  const byTurn = new Map(points.map((p) => [p.turnId, unitEmotion(p.score)]));
  let current: number | null = null;
  for (let t = 0; t <= totalTurns; t++) {
    current = byTurn.get(t) ?? current;
    series[t] = current;
  }
  return series;
}

/** Ē[t]: the mean of E_p[t] over the trajectory's parties, null until every one of them has reported. */
export function groupEmotionSeries(trajectory: EmotionTrajectory, totalTurns: number): NullableSeries {
  const parties = Object.values(trajectory.parties).map((points) => partyEmotionSeries(points, totalTurns));
  if (parties.length === 0) return new Array<number | null>(totalTurns + 1).fill(null);
  return Array.from({ length: totalTurns + 1 }, (_, t) => {
    let sum = 0;
    for (const series of parties) {
      const v = series[t];
      if (v === null) return null;
      sum += v;
    }
    return sum / parties.length;
  });
}

// Checks for per-topic series Record<topicId, number[]> that must all cover turns 0..T.
import { seriesLastTurn } from "./numeric.ts";

/** Returns the shared T of all topic series; throws if lengths differ or there are no topics. */
export function topicSeriesLastTurn(seriesByTopic: Readonly<Record<string, readonly number[]>>): number {
  const topics = Object.keys(seriesByTopic);
  if (topics.length === 0) throw new RangeError("at least one topic series is required");
  let lastTurn: number | null = null;
  for (const topic of topics) {
    const t = seriesLastTurn(seriesByTopic[topic], `series of topic ${topic}`);
    if (lastTurn !== null && t !== lastTurn) {
      throw new RangeError(`topic ${topic} has T = ${t}, other topics have T = ${lastTurn}`);
    }
    lastTurn = t;
  }
  return lastTurn as number;
}

/**
 * The hand-made run the emotion tests share: speakers A, B, MEDIATOR, A, B, MEDIATOR, A, B (T = 8,
 * mediator turns 3 and 6). Scores: A 30 @1, 50 @4, 60 @7; B 50 @2, 40 @5, 80 @8.
 *
 * Carried forward, /100:   t = 0    1    2    3    4    5    6    7    8
 *   E_A                        —   .30  .30  .30  .50  .50  .50  .60  .60
 *   E_B                        —    —   .50  .50  .50  .40  .40  .40  .80
 *   Ē = mean, once both        —    —   .40  .40  .50  .45  .45  .50  .70
 */
import type { EmotionPoint, EmotionTrajectory } from "../../../app/domain/emotion/trajectory.ts";

export const SPEAKERS = ["A", "B", "MEDIATOR", "A", "B", "MEDIATOR", "A", "B"];
export const T = SPEAKERS.length;
export const MEDIATOR_TURNS = [3, 6];

const point = (turnId: number, score: number): EmotionPoint => ({ turnId, score, reason: `r${turnId}` });
export const POINTS: Record<string, EmotionPoint[]> = {
  A: [point(1, 30), point(4, 50), point(7, 60)],
  B: [point(2, 50), point(5, 40), point(8, 80)],
};
export const GROUP = [null, null, 0.4, 0.4, 0.5, 0.45, 0.45, 0.5, 0.7];

export function selfTrajectory(parties: Record<string, EmotionPoint[]> = POINTS): EmotionTrajectory {
  return { source: { kind: "self" }, parties, failedParties: [] };
}

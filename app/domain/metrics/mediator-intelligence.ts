// Mediator Intelligence (MI): judge scores per intervention on four socio-cognitive dimensions.
import { meanOrNull } from "./numeric.ts";

export const MI_DIMENSIONS = [
  "perceptionAlignment",
  "emotionalDynamics",
  "cognitiveChallenges",
  "communicationBreakdowns",
] as const;

export type MiDimension = (typeof MI_DIMENSIONS)[number];

/** Judge marker for a dimension that does not apply to the intervention. */
export const NOT_APPLICABLE = -1;

export interface MediatorIntelligenceResult {
  /** Mean of all applicable scores (pooled over interventions and dimensions); null when none. */
  mi: number | null;
  reason?: "no applicable scores";
  perDimension: Record<MiDimension, { mean: number | null; applicable: number }>;
  interventions: number;
  /** Interventions with no applicable dimension at all. */
  interventionsWithoutScores: number;
  applicableScores: number;
  notApplicableScores: number;
}

/** `scores[i]` holds the four dimension scores of intervention i, in MI_DIMENSIONS order. */
export function mediatorIntelligence(scores: readonly (readonly number[])[]): MediatorIntelligenceResult {
  const byDimension: number[][] = MI_DIMENSIONS.map(() => []);
  let interventionsWithoutScores = 0;
  scores.forEach((row, i) => {
    if (row.length !== MI_DIMENSIONS.length) {
      throw new RangeError(`intervention ${i} has ${row.length} scores, expected ${MI_DIMENSIONS.length}`);
    }
    let applicable = 0;
    row.forEach((score, d) => {
      if (score === NOT_APPLICABLE) return;
      if (!Number.isFinite(score) || score < 1 || score > 5) {
        throw new RangeError(`intervention ${i}, ${MI_DIMENSIONS[d]}: score ${score} is neither 1..5 nor -1`);
      }
      byDimension[d].push(score);
      applicable++;
    });
    if (applicable === 0) interventionsWithoutScores++;
  });

  const pooled = byDimension.flat();
  const perDimension = Object.fromEntries(
    MI_DIMENSIONS.map((name, d) => [name, { mean: meanOrNull(byDimension[d]), applicable: byDimension[d].length }]),
  ) as Record<MiDimension, { mean: number | null; applicable: number }>;
  const mi = meanOrNull(pooled);
  const result: MediatorIntelligenceResult = {
    mi,
    perDimension,
    interventions: scores.length,
    interventionsWithoutScores,
    applicableScores: pooled.length,
    notApplicableScores: scores.length * MI_DIMENSIONS.length - pooled.length,
  };
  if (mi === null) result.reason = "no applicable scores";
  return result;
}

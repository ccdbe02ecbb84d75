/**
 * MI as ProMediate's released code computes it: each judged intervention's value is the mean of
 * its applicable scores (−1 = not applicable left out), 0 when none applies; MI is the mean over
 * the interventions. A judgment of turn 1 is left out: the code never judges a mediator turn 1
 * (./positions.ts).
 */
import type { StoredJudgment } from "../metric-inputs.ts";
import { NOT_APPLICABLE } from "../mediator-intelligence.ts";
import { meanOf, sumOf } from "./positions.ts";

export interface ReferenceMiResult {
  value: number | null;
  detail: {
    interventions: number;
    /** Interventions with no applicable score, counted as 0. */
    countedZero: number;
    openingLeftOut: boolean;
    perIntervention: { turn: number; mi: number }[];
    reason?: string;
  };
}

export function referenceMediatorIntelligence(judgments: readonly StoredJudgment[]): ReferenceMiResult {
  const judged = [...judgments].sort((a, b) => a.turnId - b.turnId).filter((j) => j.turnId >= 2);
  const perIntervention = judged.map((j) => {
    const scores = [j.perceptionAlignment, j.emotionalDynamics, j.cognitiveChallenges, j.communicationBreakdowns];
    const applicable = scores.filter((s) => s !== NOT_APPLICABLE);
    return { turn: j.turnId, mi: applicable.length > 0 ? sumOf(applicable) / applicable.length : 0 };
  });
  const detail = {
    interventions: perIntervention.length,
    countedZero: perIntervention.filter((p) => p.mi === 0).length,
    openingLeftOut: judged.length < judgments.length,
    perIntervention,
  };
  if (perIntervention.length === 0) return { value: null, detail: { ...detail, reason: "no judged intervention" } };
  return { value: meanOf(perIntervention.map((p) => p.mi)), detail };
}

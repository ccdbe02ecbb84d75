// Intervention Effectiveness (IE), SoCRATES metric on the consensus series C[0..T].
import { assertPositiveInteger, assertTurnList, gapNormalizedChange, meanOrNull, seriesLastTurn } from "./numeric.ts";

export interface EffectivenessOptions {
  /** Horizon h in turns after the mediator turn. */
  horizon?: number;
}

export interface InterventionLift {
  /** Mediator turn m. */
  m: number;
  /** C[m−1]. */
  before: number;
  /** Turn whose consensus is used as "after": min(m + h, T). */
  afterTurn: number;
  /** C[min(m + h, T)]. */
  after: number;
  /** True when before < 1, so the lift is divided by the remaining gap. */
  normalized: boolean;
  ie: number;
}

export interface EffectivenessResult {
  /** Mean IE_m over the run's mediator turns; null when there are none. */
  ie: number | null;
  reason?: "no interventions";
  perIntervention: InterventionLift[];
  interventions: number;
  /** Interventions whose horizon was cut short by the end of the run (m + h > T). */
  truncatedHorizon: number;
  horizon: number;
}

export const DEFAULT_EFFECTIVENESS_HORIZON = 5;

export function interventionEffectiveness(
  consensus: readonly number[],
  mediatorTurns: readonly number[],
  options: EffectivenessOptions = {},
): EffectivenessResult {
  const horizon = options.horizon ?? DEFAULT_EFFECTIVENESS_HORIZON;
  assertPositiveInteger(horizon, "horizon");
  const lastTurn = seriesLastTurn(consensus, "consensus");
  assertTurnList(mediatorTurns, lastTurn, "mediatorTurns");

  const perIntervention = mediatorTurns.map((m): InterventionLift => {
    const before = consensus[m - 1];
    const afterTurn = Math.min(m + horizon, lastTurn);
    const after = consensus[afterTurn];
    return { m, before, afterTurn, after, normalized: before < 1, ie: gapNormalizedChange(before, after) };
  });

  const ie = meanOrNull(perIntervention.map((p) => p.ie));
  const result: EffectivenessResult = {
    ie,
    perIntervention,
    interventions: perIntervention.length,
    truncatedHorizon: mediatorTurns.filter((m) => m + horizon > lastTurn).length,
    horizon,
  };
  if (ie === null) result.reason = "no interventions";
  return result;
}

// Intervention Frequency (IF) and First Intervention (FI).
import { assertTurnList } from "./numeric.ts";

export interface FrequencyResult {
  /** Mediator turns / party turns; null when the run has no party turns. */
  frequency: number | null;
  reason?: "no party turns";
  mediatorTurns: number;
  partyTurns: number;
}

export function interventionFrequency(mediatorTurnCount: number, partyTurnCount: number): FrequencyResult {
  for (const [value, what] of [
    [mediatorTurnCount, "mediatorTurnCount"],
    [partyTurnCount, "partyTurnCount"],
  ] as const) {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`${what} must be a non-negative integer`);
  }
  const result: FrequencyResult = {
    frequency: partyTurnCount > 0 ? mediatorTurnCount / partyTurnCount : null,
    mediatorTurns: mediatorTurnCount,
    partyTurns: partyTurnCount,
  };
  if (result.frequency === null) result.reason = "no party turns";
  return result;
}

export interface FirstInterventionResult {
  /** First mediator turn / T; null for a run without interventions. */
  fi: number | null;
  reason?: "no interventions";
  firstTurn: number | null;
  lastTurn: number;
  interventions: number;
}

export function firstIntervention(mediatorTurns: readonly number[], lastTurn: number): FirstInterventionResult {
  if (!Number.isInteger(lastTurn) || lastTurn < 1) throw new RangeError("T must be a positive integer");
  assertTurnList(mediatorTurns, lastTurn, "mediatorTurns");
  if (mediatorTurns.length === 0) {
    return { fi: null, reason: "no interventions", firstTurn: null, lastTurn, interventions: 0 };
  }
  const firstTurn = mediatorTurns[0];
  return { fi: firstTurn / lastTurn, firstTurn, lastTurn, interventions: mediatorTurns.length };
}

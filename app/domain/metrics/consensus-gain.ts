// Consensus Gain (CG) for a matched pair of runs (same scenario-condition, with and without mediator).
import { assertFiniteNumber, gapNormalizedChange } from "./numeric.ts";

export interface ConsensusGainResult {
  cg: number;
  /** Terminal consensus C_T of the unmediated run. */
  unmediated: number;
  /** Terminal consensus C_T of the mediated run. */
  mediated: number;
  /** False when U = 1 and the raw difference M − U is reported. */
  normalized: boolean;
}

export function consensusGain(unmediated: number, mediated: number): ConsensusGainResult {
  assertFiniteNumber(unmediated, "unmediated C_T");
  assertFiniteNumber(mediated, "mediated C_T");
  // Same gap-closing formula as IE, with U in the role of "before".
  return {
    cg: gapNormalizedChange(unmediated, mediated),
    unmediated,
    mediated,
    normalized: unmediated < 1,
  };
}

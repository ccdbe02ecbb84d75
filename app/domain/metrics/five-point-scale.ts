// Maps a [0, 1] agreement (ProMediate A) onto the 1–5 scale used by the evaluator and annotators.
import { assertFiniteNumber } from "./numeric.ts";

export function toFivePointScale(agreement: number): number {
  assertFiniteNumber(agreement, "agreement");
  return 1 + 4 * agreement;
}

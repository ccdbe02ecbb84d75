// Alignment of an evaluator (or baseline, or crowd) with the expert reference: Pearson r.
import { pearson, type PearsonResult } from "../stats/correlation.ts";
import { assertFiniteNumber } from "./numeric.ts";

export interface AlignmentUnit {
  runId: string;
  snippetIndex: number;
  /** True for the units of the trajectory's last snippet (the outcome). */
  isFinalSnippet: boolean;
  topicId: string;
  /** Mean of the expert scores. */
  reference: number;
  /** Value of the method under test; null when it produced none for this unit. */
  value: number | null;
}

export interface AlignmentResult {
  /** All units with a value. */
  trajectory: PearsonResult;
  /** Units of each trajectory's final snippet that have a value. */
  outcome: PearsonResult;
  units: number;
  finalSnippetUnits: number;
  /** Units left out because value is null, overall and among final-snippet units. */
  skippedNoValue: number;
  outcomeSkippedNoValue: number;
}

/** Final-snippet flags must agree with snippet order within a run, or outcome level is wrong. */
function assertFinalSnippetsConsistent(units: readonly AlignmentUnit[]): void {
  const finalIndexByRun = new Map<string, number>();
  const maxIndexByRun = new Map<string, number>();
  for (const u of units) {
    maxIndexByRun.set(u.runId, Math.max(maxIndexByRun.get(u.runId) ?? -Infinity, u.snippetIndex));
    if (!u.isFinalSnippet) continue;
    const seen = finalIndexByRun.get(u.runId);
    if (seen !== undefined && seen !== u.snippetIndex) {
      throw new RangeError(`run ${u.runId} has final-snippet units at snippets ${seen} and ${u.snippetIndex}`);
    }
    finalIndexByRun.set(u.runId, u.snippetIndex);
  }
  for (const [runId, finalIndex] of finalIndexByRun) {
    if ((maxIndexByRun.get(runId) as number) > finalIndex) {
      throw new RangeError(`run ${runId} has units after its final snippet ${finalIndex}`);
    }
  }
}

export function alignment(units: readonly AlignmentUnit[]): AlignmentResult {
  units.forEach((u, i) => {
    assertFiniteNumber(u.reference, `units[${i}].reference`);
    if (u.value !== null) assertFiniteNumber(u.value, `units[${i}].value`);
  });
  assertFinalSnippetsConsistent(units);

  const scored = units.filter((u): u is AlignmentUnit & { value: number } => u.value !== null);
  const scoredFinal = scored.filter((u) => u.isFinalSnippet);
  const finalSnippetUnits = units.filter((u) => u.isFinalSnippet).length;
  return {
    trajectory: pearson(
      scored.map((u) => u.value),
      scored.map((u) => u.reference),
    ),
    outcome: pearson(
      scoredFinal.map((u) => u.value),
      scoredFinal.map((u) => u.reference),
    ),
    units: units.length,
    finalSnippetUnits,
    skippedNoValue: units.length - scored.length,
    outcomeSkippedNoValue: finalSnippetUnits - scoredFinal.length,
  };
}

/**
 * The study dashboard's backbone comparison: every stored evaluator backbone of an alignment
 * table tested against one reference backbone (compareBackbones, at trajectory and outcome
 * level), with the reference the page asked for when it is one of them, else the best one.
 */
import type { AlignmentTable } from "./alignment-table.ts";
import {
  bestBackbone,
  compareBackbones,
  type BackboneComparison,
  type ComparisonOptions,
} from "./backbone-comparison.ts";

export interface ComparisonPanel {
  /** Every stored evaluator backbone, in the table's order. */
  backbones: string[];
  /** The backbone the others are tested against. */
  reference: string;
  /**
   * The default reference: bestBackbone (the best r among those that scored the most units; the first backbone when
   * none has an r).
   */
  defaultReference: string;
  /** The reference asked for when it names no stored backbone (the default is used instead), else null. */
  unknownReference: string | null;
  /** One per backbone other than the reference, in the table's order. */
  comparisons: BackboneComparison[];
  /** What the figures were read with (the alignment table's own settings ride along). */
  constants: { s0?: number; minExpertLabels: number };
}

/** Null when the table has no evaluator backbone (nothing to compare or to refer to). */
export function comparisonPanel(
  table: AlignmentTable,
  requested: string | null,
  options: ComparisonOptions = {},
): ComparisonPanel | null {
  const backbones = table.rows.flatMap((r) =>
    r.method === "evaluator" && r.backbone !== undefined ? [r.backbone] : [],
  );
  if (backbones.length === 0) return null;
  const defaultReference = bestBackbone(table) ?? backbones[0];
  const known = requested !== null && backbones.includes(requested);
  const reference = known ? requested : defaultReference;
  return {
    backbones,
    reference,
    defaultReference,
    unknownReference: requested !== null && !known ? requested : null,
    comparisons: backbones.filter((b) => b !== reference).map((b) => compareBackbones(table, b, reference, options)),
    constants: { ...(table.s0 !== undefined ? { s0: table.s0 } : {}), minExpertLabels: table.minExpertLabels },
  };
}

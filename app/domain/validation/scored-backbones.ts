/**
 * A judge backbone belongs in a study's alignment table only when it scored that study: a value
 * on at least one of its expert-labelled units. A backbone that judged runs of the study whose
 * snippets no expert has labelled (say, another plan's judge on shared runs) has none, and would
 * show as an empty row, be offered as a reference and enter Table 6 as if it had been validated.
 */
import type { AlignmentTable } from "./alignment-table.ts";

export function withoutUnscoredBackbones(table: AlignmentTable): AlignmentTable {
  return { ...table, rows: table.rows.filter((r) => r.method !== "evaluator" || r.values.some((v) => v !== null)) };
}

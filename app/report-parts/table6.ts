/** Table 6: the same alignment with the expert mean for each evaluator backbone of the plan's evaluator ablation. */
import type { ReportTable } from "../domain/benchmark/report-model.ts";
import type { TablePart } from "../domain/benchmark/report/part.ts";
import {
  alignmentRows,
  alignmentS0,
  alignmentTable,
  evaluatorLine,
  type StudyExpectations,
  type StudyResults,
} from "../domain/benchmark/report/studies.ts";

const TITLE = "Table 6: alignment of the plan's other evaluator backbones";

export function buildTable6(
  results: StudyResults,
  expected: Pick<StudyExpectations, "evaluator" | "otherEvaluators">,
): ReportTable | null {
  const others = expected.otherEvaluators.filter((b) => b !== expected.evaluator);
  if (results.alignment.length === 0 || others.length === 0) return null;
  const notes: string[] = [];
  const rows = alignmentRows(results, others.map(evaluatorLine), notes);
  const caption =
    "The same alignment for each evaluator backbone of the plan's evaluator ablation, per expert consensus study.";
  return alignmentTable("table6", TITLE, caption, rows, alignmentS0(results), notes);
}

export const table6: TablePart = {
  id: "table6",
  kind: "table",
  section: "paper",
  order: 60,
  title: TITLE,
  readsStudies: true,
  build: (input) => (input.studies ? buildTable6(input.studies.results, input.studies.expected) : null),
};

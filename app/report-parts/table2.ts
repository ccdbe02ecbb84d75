/**
 * Table 2: the alignment with the expert mean of the plan's evaluator, the per-turn baseline and
 * the crowd, at trajectory and outcome level, per named expert consensus study.
 */
import type { ReportTable } from "../domain/benchmark/report-model.ts";
import type { TablePart } from "../domain/benchmark/report/part.ts";
import {
  alignmentRows,
  alignmentS0,
  alignmentTable,
  BASELINE_LINE,
  CROWD_LINE,
  evaluatorLine,
  type StudyExpectations,
  type StudyResults,
} from "../domain/benchmark/report/studies.ts";

const TITLE = "Table 2: evaluator alignment with experts";

/** A backbone that judged the study but is not the plan's is left out: the table describes the plan's judges. */
export function buildTable2(results: StudyResults, expected: Pick<StudyExpectations, "evaluator">): ReportTable | null {
  if (results.alignment.length === 0) return null;
  const notes: string[] = [];
  const rows = alignmentRows(results, [evaluatorLine(expected.evaluator), BASELINE_LINE, CROWD_LINE], notes);
  const caption =
    `Pearson correlation of ${expected.evaluator}'s consensus score, the per-turn baseline's and the crowd's ` +
    "with the expert mean, per expert consensus study.";
  return alignmentTable("table2", TITLE, caption, rows, alignmentS0(results), notes);
}

export const table2: TablePart = {
  id: "table2",
  kind: "table",
  section: "paper",
  order: 20,
  title: TITLE,
  readsStudies: true,
  build: (input) => (input.studies ? buildTable2(input.studies.results, input.studies.expected) : null),
};

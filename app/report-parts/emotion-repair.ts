/**
 * Emotional repair (ER) per mediator × condition, the emotion axis (CC, CR, RR) first: the main
 * read-out of the emotion part; its all-conditions column is the leaderboard's Emotional repair.
 */
import type { ReportColumn, ReportRow, ReportTable } from "../domain/benchmark/report-model.ts";
import { buildCell } from "../domain/benchmark/report/cells.ts";
import {
  ALL_CONDITIONS,
  emotionConditionColumns,
  hasEmotion,
  NO_EMOTION_WARNING,
  samples,
  sourcesOf,
} from "../domain/benchmark/report/emotion.ts";
import { mainSubjects, type ReportInput, type RunPlace } from "../domain/benchmark/report/input.ts";
import type { TablePart } from "../domain/benchmark/report/part.ts";
import { AVG, mediatorRows } from "../domain/benchmark/report/rows.ts";

const TITLE = "Emotional repair by mediator × condition";

export function buildEmotionRepairTable(input: ReportInput): ReportTable {
  const subjects = mainSubjects(input);
  const conditions = emotionConditionColumns(subjects);
  const columns: ReportColumn[] = [...conditions, { key: ALL_CONDITIONS, label: "all conditions" }];
  const rowOf = (key: string, label: string, group: string | undefined, chosen: readonly RunPlace[]): ReportRow => {
    const cells: ReportRow["cells"] = {};
    for (const c of conditions)
      cells[c.key] = buildCell(
        samples(
          chosen.filter((s) => s.conditionKey === c.key),
          "ER",
        ),
        input.bootstrap,
      );
    cells[ALL_CONDITIONS] = buildCell(samples(chosen, "ER"), input.bootstrap);
    return { key, label, ...(group ? { group } : {}), cells };
  };
  const rows = mediatorRows(input).map((m) =>
    rowOf(
      m.key,
      m.label,
      m.group,
      subjects.filter((s) => s.mediator === m.key),
    ),
  );
  rows.push(rowOf(AVG, "Average", undefined, subjects));
  return {
    id: "emotion-repair",
    title: TITLE,
    caption: `Emotional repair (ER: the parties' emotion change over h_E turns after a mediator turn, normalised by the room left to improve) of each mediator per condition, the emotion axis (CC, CR, RR) first; emotion from ${sourcesOf(subjects) || "no source"}. Higher is better.`,
    scale: "percent",
    columns,
    rows,
    notes: [
      "Cells: mean ×100 over runs of the run-level ER (mean over its interventions) with n; missing = runs with an emotion trajectory but no ER value (incomplete judge output, no intervention after every party reported); runs without any emotion trajectory are not counted.",
      "Each run is read through its preferred trajectory: the parties' self-report when the run has one, else the plan's emotion judge, else the first judge by name. 95% CI: percentile bootstrap over scenarios.",
    ],
  };
}

export const emotionRepair: TablePart = {
  id: "emotion-repair",
  kind: "table",
  section: "emotion",
  order: 10,
  title: TITLE,
  build: (input) => (hasEmotion(input) ? buildEmotionRepairTable(input) : null),
  omitted: () => NO_EMOTION_WARNING,
};

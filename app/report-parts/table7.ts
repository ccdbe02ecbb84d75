/** Table 7: intervention frequency (IF) and first intervention (FI) per mediator, main grid. */
import type { ReportTable } from "../domain/benchmark/report-model.ts";
import { buildCell } from "../domain/benchmark/report/cells.ts";
import { mainSubjects, type ReportInput } from "../domain/benchmark/report/input.ts";
import type { TablePart } from "../domain/benchmark/report/part.ts";
import { mediatorRows } from "../domain/benchmark/report/rows.ts";

const TITLE = "Table 7: intervention frequency and first intervention";

const METRICS = ["IF", "FI"] as const;

export function buildTable7(input: ReportInput): ReportTable {
  const subjects = mainSubjects(input);
  const rows = mediatorRows(input).map((m) => {
    const own = subjects.filter((s) => s.mediator === m.key);
    const cells = Object.fromEntries(
      METRICS.map((metric) => [
        metric,
        buildCell(
          own.map((s) => ({ value: s[metric], scenarioId: s.scenarioId, runId: s.runId })),
          input.bootstrap,
        ),
      ]),
    );
    return { ...m, cells };
  });
  return {
    id: "table7",
    title: TITLE,
    caption:
      "How often each mediator speaks (IF: mediator turns per party turn) and how early it first does (FI: first mediator turn over the run's length), over every condition of the main grid. Neither needs a judge.",
    scale: "percent",
    columns: METRICS.map((metric) => ({ key: metric, label: metric })),
    rows,
    notes: [
      "Cells: mean ×100 over mediated runs with n; missing = runs without a value (FI of a run where the mediator never spoke).",
    ],
  };
}

export const table7: TablePart = {
  id: "table7",
  kind: "table",
  section: "paper",
  order: 70,
  title: TITLE,
  build: buildTable7,
};

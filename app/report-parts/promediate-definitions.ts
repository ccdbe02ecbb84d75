/**
 * ProMediate's metrics two ways: per mediator over the main grid, CC, TLE, RL, ME (on the per-turn
 * baseline) and MI (the intervention judge) as the spec defines them beside the same metrics as
 * ProMediate's released evaluation code computes them (docs/metrics.md, "ProMediate reference
 * definitions"), so a new mediator can be put next to ProMediate's published figures. Left out, without a
 * warning, when no run of the main grid has such rows (most plans judge topic-localized only).
 */
import type { ReportColumn, ReportRow, ReportTable } from "../domain/benchmark/report-model.ts";
import { buildCell } from "../domain/benchmark/report/cells.ts";
import {
  DEFINITION_METRICS,
  mainSubjects,
  type ReportInput,
  type ReportSubject,
} from "../domain/benchmark/report/input.ts";
import type { TablePart } from "../domain/benchmark/report/part.ts";
import { mediatorRows } from "../domain/benchmark/report/rows.ts";

const TITLE = "ProMediate's metrics: spec and reference definitions side by side";
const SIDES = [
  { key: "spec", label: "spec" },
  { key: "reference", label: "ProMediate ref." },
] as const;

export const DEFINITION_COLUMNS: ReportColumn[] = DEFINITION_METRICS.flatMap((metric) =>
  SIDES.map((side) => ({ key: `${metric}:${side.key}`, label: side.label, group: metric })),
);

function cells(input: ReportInput, runs: readonly ReportSubject[]): ReportRow["cells"] {
  return Object.fromEntries(
    DEFINITION_METRICS.flatMap((metric) =>
      SIDES.map((side) => [
        `${metric}:${side.key}`,
        buildCell(
          runs.map((r) => ({
            value: r.definitions?.[metric][side.key] ?? null,
            scenarioId: r.scenarioId,
            runId: r.runId,
          })),
          input.bootstrap,
        ),
      ]),
    ),
  );
}

export function buildDefinitionsTable(input: ReportInput): ReportTable | null {
  const subjects = mainSubjects(input);
  if (!subjects.some((s) => s.definitions !== undefined)) return null;
  const rows: ReportRow[] = mediatorRows(input).map((m) => ({
    key: m.key,
    label: m.label,
    group: m.group,
    cells: cells(
      input,
      subjects.filter((s) => s.mediator === m.key),
    ),
  }));
  return {
    id: "promediate-definitions",
    title: TITLE,
    caption:
      "Per mediator over the main grid's runs with a per-turn evaluation or MI judgments: CC, TLE, RL, ME (per-turn baseline G) and MI (1–5 judge) as the spec defines them and as ProMediate's released evaluation code computes them.",
    scale: "raw",
    rowLabel: "Mediator",
    columns: DEFINITION_COLUMNS,
    rows,
    notes: [
      "Mean over runs with n and 95% scenario-bootstrap CI; a run without a row of one definition is missing there (npx socrates metrics --definitions promediate-reference computes them).",
      "The reference column reproduces ProMediate's code, defects aside: docs/metrics.md lists every difference with a worked example.",
    ],
  };
}

export const promediateDefinitions: TablePart = {
  id: "promediate-definitions",
  kind: "table",
  section: "paper",
  order: 200,
  title: TITLE,
  build: buildDefinitionsTable,
};

/**
 * What the consensus-gain figures (app/report-parts/figure2, figure3, figure6) share: a cell as
 * a figure's data row, CG cells, the axes present. Each row carries its mean ×100, n and CI, so
 * the csv output is the figure's data.
 */
import { CONDITION_AXES } from "../../bundle.ts";
import type { ChartRow } from "../charts/style.ts";
import type { ReportCell } from "../report-model.ts";
import { buildCell } from "./cells.ts";
import { judgedValue, type ReportInput, type ReportSubject } from "./input.ts";

export const CG_TITLE = "consensus gain ×100";
export const x100 = (v: number | null) => (v === null ? null : Math.round(v * 1e4) / 100);

/** A cell as a figure's data fields: `{[field]: mean ×100, n, missing, ci_low, ci_high}`. */
export function cellFields(field: string, cell: ReportCell): ChartRow {
  return {
    [field]: x100(cell.mean),
    n: cell.n,
    missing: cell.missing,
    ci_low: x100(cell.ci?.[0] ?? null),
    ci_high: x100(cell.ci?.[1] ?? null),
  };
}

export function cgCell(input: ReportInput, subjects: readonly ReportSubject[]) {
  return buildCell(
    subjects.map((s) => ({
      value: judgedValue(s, input.evaluators[0], "CG"),
      scenarioId: s.scenarioId,
      runId: s.runId,
    })),
    input.bootstrap,
  );
}

export function axesOf(subjects: readonly ReportSubject[]): string[] {
  const present = new Set(subjects.map((s) => s.axis));
  return CONDITION_AXES.filter((a) => present.has(a));
}

/** Rows {mediator, axis, cg, n, missing, ci_low, ci_high} for these subjects. */
export function axisRows(
  input: ReportInput,
  subjects: readonly ReportSubject[],
  mediators: readonly string[],
  extra: ChartRow = {},
): ChartRow[] {
  return mediators.flatMap((mediator) =>
    axesOf(subjects).flatMap((axis) => {
      const cell = cgCell(
        input,
        subjects.filter((s) => s.mediator === mediator && s.axis === axis),
      );
      if (cell.n === 0) return [];
      return [{ mediator, axis, ...extra, ...cellFields("cg", cell) }];
    }),
  );
}

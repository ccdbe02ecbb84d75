/** Table 3: IT / IE / CG per mediator × domain (+ Avg), main grid, main evaluator, all conditions. */
import { DOMAINS } from "../domain/bundle.ts";
import type { ReportColumn, ReportRow, ReportTable } from "../domain/benchmark/report-model.ts";
import { buildCell, type CellSample } from "../domain/benchmark/report/cells.ts";
import {
  judgedValue,
  mainSubjects,
  TOPIC_METRICS,
  type ReportInput,
  type ReportSubject,
} from "../domain/benchmark/report/input.ts";
import type { TablePart } from "../domain/benchmark/report/part.ts";
import { AVG, mediatorRows } from "../domain/benchmark/report/rows.ts";

const TITLE = "Table 3: mediator performance by domain";

/** The domains the grid covers, in the paper's order. */
export function gridDomains(subjects: readonly ReportSubject[]): string[] {
  const present = new Set(subjects.map((s) => s.domain));
  return DOMAINS.filter((d) => present.has(d));
}

function samples(
  subjects: readonly ReportSubject[],
  evaluator: string,
  metric: (typeof TOPIC_METRICS)[number],
): CellSample[] {
  return subjects.map((s) => ({ value: judgedValue(s, evaluator, metric), scenarioId: s.scenarioId, runId: s.runId }));
}

export function buildTable3(input: ReportInput): ReportTable {
  const evaluator = input.evaluators[0];
  const subjects = mainSubjects(input);
  const domains = gridDomains(subjects);
  const columns: ReportColumn[] = TOPIC_METRICS.flatMap((metric) =>
    [...domains, AVG].map((d) => ({ key: `${metric}|${d}`, label: d === AVG ? "Avg" : d, group: metric })),
  );
  const rowOf = (
    key: string,
    label: string,
    group: string | undefined,
    chosen: readonly ReportSubject[],
  ): ReportRow => {
    const cells: ReportRow["cells"] = {};
    for (const metric of TOPIC_METRICS) {
      for (const d of domains)
        cells[`${metric}|${d}`] = buildCell(
          samples(
            chosen.filter((s) => s.domain === d),
            evaluator,
            metric,
          ),
          input.bootstrap,
        );
      cells[`${metric}|${AVG}`] = buildCell(samples(chosen, evaluator, metric), input.bootstrap);
    }
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
  const absent = DOMAINS.filter((d) => !domains.includes(d));
  return {
    id: "table3",
    title: TITLE,
    caption: `Intervention timeliness (IT), intervention effectiveness (IE) and consensus gain (CG) of each mediator per domain, under the evaluator ${evaluator}, over every condition of the main grid. Higher is better.`,
    scale: "percent",
    columns,
    rows,
    notes: [
      "Cells: mean ×100 over runs (CG: over matched pairs) with n; missing = runs without a value; 95% CI: percentile bootstrap over scenarios.",
      "Avg: every run of the row; Average row: every run of every mediator pooled.",
      ...(absent.length > 0 ? [`Domains without a scenario in the plan are left out: ${absent.join(", ")}.`] : []),
    ],
  };
}

export const table3: TablePart = {
  id: "table3",
  kind: "table",
  section: "paper",
  order: 30,
  title: TITLE,
  heat: true,
  build: buildTable3,
};

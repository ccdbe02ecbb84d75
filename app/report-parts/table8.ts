/**
 * Table 8: the evaluator swap. The mean over mediators of IT / IE / CG under each evaluator
 * backbone, and how well the mediator ranking under each ablation evaluator agrees with the
 * ranking under the main one (Spearman ρ, Kendall τ-b, each with its p).
 */
import type { ReportRow, ReportTable } from "../domain/benchmark/report-model.ts";
import { buildCell } from "../domain/benchmark/report/cells.ts";
import {
  judgedValue,
  mainSubjects,
  TOPIC_METRICS,
  type ReportInput,
  type ReportSubject,
} from "../domain/benchmark/report/input.ts";
import { rankingAgreement as agreement } from "../domain/metrics/ranking-agreement.ts";
import { mediatorScores } from "../domain/benchmark/report/rankings.ts";
import type { TablePart } from "../domain/benchmark/report/part.ts";
import { groupBy, text, withP } from "../domain/benchmark/report/rows.ts";

const TITLE = "Table 8: evaluator swap";

function scoresUnder(
  subjects: readonly ReportSubject[],
  evaluator: string,
  metric: (typeof TOPIC_METRICS)[number],
): Record<string, number> {
  const byMediator = groupBy(subjects, (s) => s.mediator);
  return mediatorScores(
    new Map([...byMediator].map(([m, list]) => [m, list.map((s) => judgedValue(s, evaluator, metric))])),
  );
}

export function buildTable8(input: ReportInput): ReportTable | null {
  if (input.evaluators.length < 2) return null;
  const [main, ...others] = input.evaluators;
  const subjects = mainSubjects(input);
  const rows: ReportRow[] = input.evaluators.map((evaluator, i) => ({
    key: evaluator,
    label: i === 0 ? `${evaluator} (main)` : evaluator,
    group: "mean over mediators",
    cells: Object.fromEntries(
      TOPIC_METRICS.map((metric) => [
        metric,
        buildCell(
          subjects.map((s) => ({ value: judgedValue(s, evaluator, metric), scenarioId: s.scenarioId, runId: s.runId })),
          input.bootstrap,
        ),
      ]),
    ),
  }));
  for (const other of others) {
    const results = TOPIC_METRICS.map(
      (metric) =>
        [metric, agreement(scoresUnder(subjects, main, metric), scoresUnder(subjects, other, metric))] as const,
    );
    rows.push({
      key: `spearman|${other}`,
      label: `Spearman ρ, ${main} vs ${other}`,
      group: "rank agreement",
      cells: Object.fromEntries(
        results.map(([metric, r]) => [
          metric,
          text(r.spearman.rho, withP(r.spearman.rho, r.spearman.p, r.spearman.method)),
        ]),
      ),
    });
    rows.push({
      key: `kendall|${other}`,
      label: `Kendall τ-b, ${main} vs ${other}`,
      group: "rank agreement",
      cells: Object.fromEntries(
        results.map(([metric, r]) => [
          metric,
          text(r.kendall.tau, withP(r.kendall.tau, r.kendall.p, r.kendall.method)),
        ]),
      ),
    });
  }
  return {
    id: "table8",
    title: TITLE,
    caption: `The same main-grid runs judged by each evaluator backbone: the mean over every mediator's runs, and the agreement of the mediator rankings (by mean) under ${main} and each other evaluator.`,
    scale: "percent",
    rowLabel: "Evaluator",
    columns: TOPIC_METRICS.map((metric) => ({ key: metric, label: metric })),
    rows,
    notes: [
      "Means: ×100 over the runs (CG: pairs) of every mediator, with n and a scenario bootstrap CI.",
      "Rank agreement over the mediators scored under both evaluators; p two-sided, exact (all pairings of the rankings) without ties at small n, else asymptotic; each p names its method.",
    ],
  };
}

export const table8: TablePart = {
  id: "table8",
  kind: "table",
  section: "paper",
  order: 80,
  title: TITLE,
  build: buildTable8,
  omitted: () => "Table 8 omitted: the plan has no evaluator ablation (ablations.evaluators).",
};

/**
 * Human-calibrated scores (issue 33): per mediator and human-scale quantity, the judge-only mean,
 * the experts-only estimate and the PPI++ estimate with their 95% CIs, from the plan's expert
 * consensus studies (input.studies.calibrated, app/server/estimation/calibrated.server.ts). Over all
 * domains, stratified; `socrates estimate` gives the per-domain rows.
 */
import type { ReportRow, ReportTable, ReportText } from "../domain/benchmark/report-model.ts";
import type { TablePart } from "../domain/benchmark/report/part.ts";
import type { CalibratedEstimates } from "../domain/estimation/calibrated.ts";
import {
  isProvisional,
  PROVISIONAL_NOTE,
  labelledOfRuns,
  labelsText,
  mediatorName,
  QUANTITY_LABELS,
  withInterval,
} from "../domain/estimation/calibrated-format.ts";
import type { MeanEstimate } from "../domain/estimation/mean-estimators.ts";

const TITLE = "Human-calibrated scores";

/** Row keys: `<quantity>|<mediator>`; the leaderboard reads the outcome rows' PPI++. */
export const calibratedRowKey = (quantity: string, mediator: string) => `${quantity}|${mediator}`;

const estimateCell = (e: MeanEstimate | null): ReportText => ({
  text: withInterval(e),
  value: e?.estimate ?? null,
  ...(e ? { ci: [e.lower, e.upper] as [number, number] } : {}),
});

export function buildHumanCalibrated(c: CalibratedEstimates): ReportTable {
  const overall = c.rows.filter((r) => r.domain === null);
  // An active study's design gives its own column; other studies have none.
  const active = overall.some((r) => r.active);
  const provisional = overall.some((r) => [r.humanOnly, r.ppi, r.active].some((e) => e && isProvisional(e)));
  const rows: ReportRow[] = overall.map((r) => ({
    key: calibratedRowKey(r.quantity, mediatorName(r)),
    label: mediatorName(r),
    group: QUANTITY_LABELS[r.quantity],
    cells: {
      labelled: { text: labelledOfRuns(r), value: r.labelled },
      judge: estimateCell(r.judgeOnly),
      human: estimateCell(r.humanOnly),
      ppi: estimateCell(r.ppi),
      ...(active ? { active: estimateCell(r.active) } : {}),
      labels: { text: labelsText(r.labelsToTarget.ppi), value: r.labelsToTarget.ppi },
    },
  }));
  const level = Math.round((1 - c.settings.alpha) * 100);
  const incomplete = c.rows.filter((r) => r.domain !== null).reduce((s, r) => s + r.incomplete, 0);
  const notes = [
    `Values on 0–1: C = mean over topics of (score − 1) / 4, at the final snippet (outcome) or averaged over the snippets (trajectory); the judge reads ${c.evaluator}'s s[k][t_end] (s0 = ${c.s0}) at every run's snippet ends, the experts the mean expert score of studies ${c.studyIds.join(", ")} (docs/metrics.md, "Human-scale quantities").`,
    `Judge-only: the mean over every judged run. Human-only: the mean over the runs whose expert labels are complete. PPI++: the judge on every run corrected by the labelled runs (power-tuned). ${level}% normal CIs; over all domains, the domains' estimates weighted by their share of the runs (stratified).`,
    `Labels to ±${c.settings.target}: more labelled runs PPI++ would need for that half-width, assuming its standard error falls as 1/√labels.`,
    ...(active
      ? [
          "Active: the judge on every run corrected by the labels drawn with known probabilities (inverse-probability weighted; docs/active-labelling.md).",
        ]
      : []),
    ...(provisional ? [PROVISIONAL_NOTE] : []),
    ...(incomplete > 0 ? [`${incomplete} run-quantities have incomplete expert labels: counted, never imputed.`] : []),
    ...(c.labelledOutsidePlan > 0
      ? [`${c.labelledOutsidePlan} runs the studies label are not runs of the plan's main grid and are not used.`]
      : []),
    ...overall.flatMap((r) => r.notes.map((n) => `${mediatorName(r)} (${r.quantity}): ${n}.`)),
  ];
  return {
    id: "human-calibrated",
    title: TITLE,
    caption:
      "Each mediator's score on the experts' scale, estimated from the judge's values on every run and the expert labels on some: judge-only, human-only and PPI++ with their confidence intervals.",
    scale: "raw",
    rowLabel: "Mediator",
    columns: [
      { key: "labelled", label: "labelled / runs" },
      { key: "judge", label: "judge-only [CI]" },
      { key: "human", label: "human-only [CI]" },
      { key: "ppi", label: "PPI++ [CI]" },
      ...(active ? [{ key: "active", label: "active [CI]" }] : []),
      { key: "labels", label: `labels to ±${c.settings.target}` },
    ],
    rows,
    notes,
  };
}

export const humanCalibrated: TablePart = {
  id: "human-calibrated",
  kind: "table",
  section: "paper",
  // After Table 3, the judge's own scores.
  order: 35,
  title: TITLE,
  readsStudies: true,
  build: (input) => (input.studies?.calibrated ? buildHumanCalibrated(input.studies.calibrated) : null),
};

/**
 * Table 1's automatic proxy (app/domain/emotion/fidelity-proxy.ts): the generated A/B pairs'
 * measured emotional volatility against their assigned reactiveness, with no annotator.
 */
import type { ReportRow, ReportTable } from "../domain/benchmark/report-model.ts";
import type { TablePart } from "../domain/benchmark/report/part.ts";
import { pct, text, withP } from "../domain/benchmark/report/rows.ts";
import type { StudyResults } from "../domain/benchmark/report/studies.ts";

const TITLE = "Table 1 (automatic): persona fidelity measured from emotional volatility";

/**
 * "Table 1 (automatic)": per simulator backbone, the pairs whose target party has a measured
 * volatility on both sides, the share of them whose more reactive side is the more volatile,
 * and Pearson r of level against volatility. Null when no pair has a measured side.
 */
export function buildTable1Proxy(results: StudyResults): ReportTable | null {
  if (!results.proxy.some((b) => b.observations > 0)) return null;
  const rows: ReportRow[] = results.proxy.map((b) => ({
    key: b.backbone,
    label: b.backbone,
    cells: {
      measured: text(b.measuredPairs, `${b.measuredPairs} of ${b.pairs}`),
      agreement: text(b.agreement, b.agreement === null ? "–" : `${pct(b.agreement)}%`),
      ties: text(b.ties, String(b.ties)),
      r: text(b.r, withP(b.r, b.p)),
      observations: text(b.observations, String(b.observations)),
    },
  }));
  const alone = !results.fidelity.some((f) => f.rows.length > 0);
  return {
    id: "table1proxy",
    title: TITLE,
    caption:
      "Per simulator backbone, over the stored A/B reactiveness pairs: does the target party's measured emotional volatility follow its assigned reactiveness level? A free, automatic counterpart of the crowd's Table 1.",
    scale: "raw",
    rowLabel: "Simulator",
    columns: [
      { key: "measured", label: "measured pairs" },
      { key: "agreement", label: "agreement" },
      { key: "ties", label: "ties" },
      { key: "r", label: "Pearson r (p)" },
      { key: "observations", label: "observations" },
    ],
    rows,
    notes: [
      "Measured pair: the target party has a volatility (mean absolute turn-to-turn change of its emotion, ≥ 2 reports) in both runs, read from each run's preferred trajectory (self-report, else the plan's emotion judge, else the first judge).",
      "Agreement: share of measured pairs whose more reactive side is strictly more volatile (a tie counts as not ordered). r: level against volatility over the distinct (run, target party) observations.",
      alone
        ? "No A/B study has crowd labels yet, so this proxy stands alone: it checks that the simulator acts out reactiveness, not that people perceive it."
        : "Read beside Table 1: the crowd's fidelity says whether people perceive the reactiveness this measures.",
    ],
  };
}

export const table1proxy: TablePart = {
  id: "table1proxy",
  kind: "table",
  section: "paper",
  // Right after Table 1.
  order: 15,
  title: TITLE,
  readsStudies: true,
  build: (input) => (input.studies ? buildTable1Proxy(input.studies.results) : null),
};

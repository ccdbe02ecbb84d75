/**
 * Per mediator over the main grid: emotional repair (ER), final emotion (EF), volatility (EV) and
 * the emotion–consensus correlation (EC), beside the unmediated runs of the same scenario-conditions.
 */
import type { ReportCell, ReportRow, ReportTable, ReportText } from "../domain/benchmark/report-model.ts";
import { buildCell } from "../domain/benchmark/report/cells.ts";
import {
  type EmotionMetric,
  hasEmotion,
  NO_EMOTION_WARNING,
  samples,
  sourcesOf,
  UNMEDIATED_ROW,
} from "../domain/benchmark/report/emotion.ts";
import { mainSubjects, mainUnmediated, type ReportInput, type RunPlace } from "../domain/benchmark/report/input.ts";
import type { TablePart } from "../domain/benchmark/report/part.ts";
import { mediatorRows, text } from "../domain/benchmark/report/rows.ts";

const TITLE = "Emotion summary per mediator";

/** Two decimals, never "-0.00". */
const r2 = (v: number) => (Math.abs(v) < 0.005 ? 0 : v).toFixed(2);

/** EC is a correlation, not a share: its mean is printed as r with CI and n (and missing) rather than ×100. */
function correlationText(cell: ReportCell): ReportText {
  const missing = cell.missing > 0 ? `${cell.missing} missing` : "";
  if (cell.mean === null) return text(null, missing ? `– (${missing})` : "–");
  const ci = cell.ci ? ` [${r2(cell.ci[0])}, ${r2(cell.ci[1])}]` : "";
  return text(cell.mean, `${r2(cell.mean)}${ci} (${[String(cell.n), missing].filter(Boolean).join(", ")})`);
}

function summaryCells(input: ReportInput, runs: readonly RunPlace[], mediated: boolean): ReportRow["cells"] {
  const cell = (metric: EmotionMetric) => buildCell(samples(runs, metric), input.bootstrap);
  return {
    ER: mediated ? cell("ER") : text(null, "n/a"),
    EF: cell("EF"),
    EV: cell("EV"),
    EC: correlationText(cell("EC")),
  };
}

export function buildEmotionSummaryTable(input: ReportInput): ReportTable {
  const subjects = mainSubjects(input);
  const baseline = mainUnmediated(input);
  const rows: ReportRow[] = mediatorRows(input).map((m) => ({
    key: m.key,
    label: m.label,
    group: m.group,
    cells: summaryCells(
      input,
      subjects.filter((s) => s.mediator === m.key),
      true,
    ),
  }));
  rows.push({
    key: UNMEDIATED_ROW,
    label: "unmediated",
    group: "baseline (no mediator)",
    cells: summaryCells(input, baseline, false),
  });
  return {
    id: "emotion-summary",
    title: TITLE,
    caption: `Emotional repair (ER), final emotion (EF), emotional volatility (EV) and the emotion–consensus correlation (EC, under the evaluator ${input.evaluators[0]}) of each mediator's runs over every condition of the main grid, beside the unmediated runs of the same scenario-conditions; emotion from ${sourcesOf([...subjects, ...baseline]) || "no source"}.`,
    scale: "percent",
    rowLabel: "Mediator",
    columns: [
      { key: "ER", label: "ER" },
      { key: "EF", label: "EF" },
      { key: "EV", label: "EV" },
      { key: "EC", label: "EC r" },
    ],
    rows,
    notes: [
      "ER, EF, EV: mean ×100 over runs with n and 95% scenario-bootstrap CI; EF higher = calmer at the end, EV lower = steadier. EC: mean Pearson r over runs [CI] (n, missing).",
      "The unmediated row has no ER (no mediator turn): compare a mediator's EF and EV with it.",
    ],
  };
}

export const emotionSummary: TablePart = {
  id: "emotion-summary",
  kind: "table",
  section: "emotion",
  order: 20,
  title: TITLE,
  build: (input) => (hasEmotion(input) ? buildEmotionSummaryTable(input) : null),
  omitted: () => NO_EMOTION_WARNING,
};

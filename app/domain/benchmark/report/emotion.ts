/**
 * The emotion part of the report (docs/metrics-emotion.md): emotional repair (ER) per mediator ×
 * condition with the emotion axis (CC, CR, RR) first — the main read-out —, a per-mediator
 * summary of ER, final emotion (EF), volatility (EV) and the emotion–consensus correlation (EC)
 * beside the unmediated runs, and a figure of ER on the emotion axis. Each run is read through
 * its preferred trajectory (ReportSubject.emotion); a run without one is left out of the cells'
 * counts altogether, a run whose metric is null is counted as missing.
 */
import { CONDITION_VARIANTS } from "../../bundle.ts";
import { facetedBars } from "../charts/faceted-bars.ts";
import type { ChartRow } from "../charts/style.ts";
import type { ReportCell, ReportColumn, ReportFigure, ReportRow, ReportTable, ReportText } from "../report-model.ts";
import { buildCell, type CellSample } from "./cells.ts";
import { cellFields } from "./figures.ts";
import { mainSubjects, mainUnmediated, type ReportInput, type RunPlace } from "./input.ts";
import { mediatorRows, text } from "./rows.ts";
import { AVG } from "./table3.ts";

export const EMOTION_TABLE_IDS = ["emotion-repair", "emotion-summary"] as const;
export const EMOTION_FIGURE_ID = "emotion-repair-figure";
/** The repair table's column over every condition (the leaderboard's Emotional repair). */
export const ALL_CONDITIONS = "all";
export const UNMEDIATED_ROW = "unmediated";

const EMOTION_AXIS = "emotion";
const EMOTION_VARIANTS: readonly string[] = CONDITION_VARIANTS.emotion;

/** Why the emotion part is missing, and how to get it. */
export const NO_EMOTION_WARNING =
  "Emotion tables and figure omitted: no run of the grid has an emotion trajectory. Set the plan's `emotion` field (self-report during simulation, or an emotion judge) or run `socrates evaluate --method emotion`, then `socrates metrics`.";

type EmotionMetric = "ER" | "EF" | "EV" | "EC";

/** The runs that have an emotion trajectory, each as a cell sample of one metric. */
function samples(runs: readonly RunPlace[], metric: EmotionMetric): CellSample[] {
  return runs.flatMap((r) => (r.emotion ? [{ value: r.emotion[metric], scenarioId: r.scenarioId, runId: r.runId }] : []));
}

/** The condition keys present, emotion axis first (CC, CR, RR), then general, then the others in the paper's order. */
export function emotionConditionColumns(runs: readonly RunPlace[]): ReportColumn[] {
  const present = new Set(runs.map((r) => r.conditionKey));
  const axes = ["general", ...Object.keys(CONDITION_VARIANTS).filter((a) => a !== "general" && a !== EMOTION_AXIS)] as (keyof typeof CONDITION_VARIANTS)[];
  const first = EMOTION_VARIANTS.map((v) => ({ key: `${EMOTION_AXIS}:${v}`, label: v, group: "emotion axis" }));
  const rest = axes.flatMap((axis) =>
    CONDITION_VARIANTS[axis].map((v) => (axis === "general" ? { key: "general", label: "general" } : { key: `${axis}:${v}`, label: v, group: axis })),
  );
  return [...first, ...rest].filter((c) => present.has(c.key));
}

/** Sources the report's runs were read from ("self-report", "judge x"), for the captions. */
function sourcesOf(runs: readonly RunPlace[]): string {
  const sources = [...new Set(runs.flatMap((r) => (r.emotion ? [r.emotion.source] : [])))].sort();
  return sources.join(", ");
}

export function buildEmotionRepairTable(input: ReportInput): ReportTable {
  const subjects = mainSubjects(input);
  const conditions = emotionConditionColumns(subjects);
  const columns: ReportColumn[] = [...conditions, { key: ALL_CONDITIONS, label: "all conditions" }];
  const rowOf = (key: string, label: string, group: string | undefined, chosen: readonly RunPlace[]): ReportRow => {
    const cells: ReportRow["cells"] = {};
    for (const c of conditions) cells[c.key] = buildCell(samples(chosen.filter((s) => s.conditionKey === c.key), "ER"), input.bootstrap);
    cells[ALL_CONDITIONS] = buildCell(samples(chosen, "ER"), input.bootstrap);
    return { key, label, ...(group ? { group } : {}), cells };
  };
  const rows = mediatorRows(input).map((m) => rowOf(m.key, m.label, m.group, subjects.filter((s) => s.mediator === m.key)));
  rows.push(rowOf(AVG, "Average", undefined, subjects));
  return {
    id: EMOTION_TABLE_IDS[0],
    title: "Emotional repair by mediator × condition",
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
  const rows: ReportRow[] = mediatorRows(input).map((m) => ({ key: m.key, label: m.label, group: m.group, cells: summaryCells(input, subjects.filter((s) => s.mediator === m.key), true) }));
  rows.push({ key: UNMEDIATED_ROW, label: "unmediated", group: "baseline (no mediator)", cells: summaryCells(input, baseline, false) });
  return {
    id: EMOTION_TABLE_IDS[1],
    title: "Emotion summary per mediator",
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

/** ER per mediator on the emotion axis's variants; null when the grid has no emotion-axis run with emotion. */
export function buildEmotionRepairFigure(input: ReportInput): ReportFigure | null {
  const subjects = mainSubjects(input).filter((s) => s.axis === EMOTION_AXIS && s.emotion !== null);
  if (subjects.length === 0) return null;
  const mediators = input.mediators.map((m) => m.name);
  const variants = EMOTION_VARIANTS.filter((v) => subjects.some((s) => s.variant === v));
  const rows: ChartRow[] = mediators.flatMap((mediator) =>
    variants.flatMap((variant) => {
      const cell = buildCell(samples(subjects.filter((s) => s.mediator === mediator && s.variant === variant), "ER"), input.bootstrap);
      if (cell.n === 0) return [];
      return [{ mediator, variant, ...cellFields("er", cell) }];
    }),
  );
  return {
    id: EMOTION_FIGURE_ID,
    title: "Emotional repair on the emotion axis",
    caption: "Mean emotional repair of each mediator on the emotion-axis conditions (CC: both parties calm, CR: one reactive, RR: both reactive), with the 95% scenario-bootstrap CI.",
    spec: facetedBars({
      title: "Emotional repair on the emotion axis",
      rows,
      facet: { field: "mediator", title: "mediator", columns: 4, order: mediators },
      x: { field: "variant", title: "emotion condition", order: variants },
      y: { field: "er", title: "emotional repair ×100" },
      color: { field: "variant", title: "condition", order: variants },
      ci: { low: "ci_low", high: "ci_high" },
    }),
  };
}

/** Whether any run of the input has an emotion trajectory. */
export function hasEmotion(input: ReportInput): boolean {
  return input.subjects.some((s) => s.emotion !== null) || input.unmediated.some((s) => s.emotion !== null);
}

/** The emotion tables and figure, or a warning saying how to get them. */
export function buildEmotionParts(input: ReportInput): { tables: ReportTable[]; figures: ReportFigure[]; warnings: string[] } {
  if (!hasEmotion(input)) return { tables: [], figures: [], warnings: [NO_EMOTION_WARNING] };
  const figure = buildEmotionRepairFigure(input);
  return {
    tables: [buildEmotionRepairTable(input), buildEmotionSummaryTable(input)],
    figures: figure ? [figure] : [],
    warnings: figure ? [] : ["Emotional-repair figure omitted: no emotion-axis (CC/CR/RR) run of the main grid has an emotion trajectory."],
  };
}

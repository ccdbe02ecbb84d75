/**
 * The benchmark report as data: generic tables of cells and Vega-Lite figures, built by the
 * pure builders in ./report and rendered unchanged by every output — the CLI's md, csv, svg and
 * html files and the Benchmark page. A table or figure is identified by the paper's number
 * (`table3`, `figure2`, …), so the page can pick the ones it shows.
 */
import type { TopLevelSpec } from "vega-lite";

/** One aggregated cell: a mean over runs (or matched pairs) with what it rests on. */
export interface ReportCell {
  /** Mean on the metric's own scale (SoCRATES metrics on [0, 1], shown ×100); null when no run has a value. */
  mean: number | null;
  median: number | null;
  /** Runs (or pairs) that entered the mean. */
  n: number;
  /**
   * Runs (or pairs) of the cell without a value (incomplete judge output, no drop events, …): counted, never imputed.
   */
  missing: number;
  /** 95% percentile bootstrap CI of the mean, resampling scenarios (seeded); null with fewer than two scenarios. */
  ci: [number, number] | null;
  /**
   * The mediated runs behind the cell (for a pair metric, each pair's mediated run): the page links the cell to them.
   */
  runIds: string[];
  /** Runs of the cell that did not enter it (no value): `missing` of them. */
  missingRunIds?: string[];
}

/** A cell that is not a mean: a rank correlation, a median ± half-range, a count. */
export interface ReportText {
  text: string;
  /** The number behind the text, for csv and for sorting. */
  value: number | null;
  /** The interval the text states around `value`, when it states one (the human-calibrated estimates). */
  ci?: [number, number];
}

export type ReportValue = ReportCell | ReportText;

export const isReportCell = (v: ReportValue | undefined): v is ReportCell => v !== undefined && "n" in v;

export interface ReportColumn {
  key: string;
  label: string;
  /** Columns under one group header (Table 3: the metric above its eight domains). */
  group?: string;
}

export interface ReportRow {
  key: string;
  label: string;
  /** Rows under one group label (Table 3: proprietary / open-source; here, the mediator mode). */
  group?: string;
  cells: Record<string, ReportValue>;
}

export interface ReportTable {
  id: string;
  title: string;
  /** What the table shows and how to read it, in one or two sentences. */
  caption: string;
  /** How a ReportCell mean is printed: ×100 with one decimal (`percent`), or as it is. */
  scale: "percent" | "raw";
  columns: ReportColumn[];
  rows: ReportRow[];
  notes: string[];
  /** The header of the row-label column (default "Mediator"). */
  rowLabel?: string;
}

export interface ReportFigure {
  id: string;
  title: string;
  caption: string;
  /** The chart; its inline data rows are what the csv output writes. */
  spec: TopLevelSpec;
}

export interface ReportConstants {
  /** Every metric parameter the stored rows were computed with (δ, W, h, s0, τ, …), by parameter name. */
  params: Record<string, unknown>;
  /** Timing-profile bins. */
  bins: number;
  bootstrap: { draws: number; seed: number; level: number };
}

export interface BenchmarkReport {
  planName: string;
  planHash: string;
  /** The topic-localized judge of the main tables. */
  evaluator: string;
  simulator: string;
  generatedAt: string;
  /** The validation studies Tables 1, 2 and 6 read (the plan's `studies`, or `report --study`); empty: none. */
  studyIds: number[];
  constants: ReportConstants;
  /** How much of the grid the report stands on. */
  coverage: {
    plannedRuns: number;
    storedRuns: number;
    /** Mediated runs with metric rows under the main evaluator. */
    evaluatedRuns: number;
    /** Of those, the runs whose judge output was incomplete (their metrics are null and counted as missing). */
    incompleteRuns: number;
    /** Of the runs above, the mediated ones (every table cell is about these). */
    plannedMediatedRuns?: number;
    storedMediatedRuns?: number;
  };
  tables: ReportTable[];
  figures: ReportFigure[];
  /** Things the reader must know (a missing ablation, mixed parameters, …). */
  warnings: string[];
}

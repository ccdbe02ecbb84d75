/**
 * The chart views issue 32 adds beside tables: the run viewer's consensus by turn (drawn by
 * hand in SVG before), an evaluator-against-expert scatter for the alignment table, and dots
 * with 95% intervals for proportions (persona fidelity, gold accuracy). Tooltips carry format
 * strings, so a hover shows "55.6", never "55.5555555556".
 */
import type { TopLevelSpec } from "vega-lite";
import { CHART_BASE, OKABE_ITO } from "../benchmark/charts/style.ts";
import { wilsonInterval } from "./intervals.ts";
import type { AlignmentTable } from "../validation/alignment-table.ts";

// Legend labels in full: 480 px holds some 70 characters at 11 px (text-width.ts).
const BOTTOM_LEGEND = { orient: "bottom", direction: "vertical", labelLimit: 480 } as const;

export interface ConsensusSeries {
  label: string;
  /** Values in [0, 1] at turns 0..T. */
  values: number[];
  color: string;
  dashed?: boolean;
}

/** The mark names the drawn SVG carries as classes (`<name>_marks`), for tests and styling. */
export const CONSENSUS_CHART_MARKS = { lines: "consensus_lines", mediator: "mediator_turns" } as const;

type ConsensusMethod = "topic-localized" | "per-turn";

/** Line colours by method: blues and greens for C[t], oranges and reds (dashed) for the G[t] baseline. */
const RUN_PALETTE: Record<ConsensusMethod, string[]> = {
  "topic-localized": ["#1f6feb", "#0b7a75", "#6f42c1"],
  "per-turn": ["#d9480f", "#b08800", "#cf222e"],
};

export const consensusSeriesLabel = (e: { method: ConsensusMethod; backbone: string }) =>
  `${e.method === "topic-localized" ? "C[t] topic-localized" : "G[t] per-turn baseline"} · ${e.backbone}`;

/** One chart line per evaluation of a run, coloured by method (dashed: the per-turn baseline). */
export function runConsensusSeries(
  evaluations: readonly { method: ConsensusMethod; backbone: string; consensus: number[] }[],
): ConsensusSeries[] {
  const used = { "topic-localized": 0, "per-turn": 0 };
  return evaluations.map((e) => ({
    label: consensusSeriesLabel(e),
    values: e.consensus,
    color: RUN_PALETTE[e.method][used[e.method]++ % 3],
    dashed: e.method === "per-turn",
  }));
}

export function consensusChartSpec(input: {
  title: string;
  series: readonly ConsensusSeries[];
  totalTurns: number;
  mediatorTurns: readonly number[];
}): TopLevelSpec {
  const domain = input.series.map((s) => s.label);
  const x = {
    field: "turn",
    type: "quantitative",
    title: "turn",
    scale: { domain: [0, input.totalTurns], nice: false, zero: true },
    axis: { tickMinStep: 1, format: "d" },
  } as const;
  const rows = input.series.flatMap((s) => s.values.map((v, turn) => ({ series: s.label, turn, consensus: v * 100 })));
  return {
    ...CHART_BASE,
    title: { text: input.title, subtitle: "grey rules: mediator turns" },
    width: 620,
    height: 240,
    layer: [
      {
        name: CONSENSUS_CHART_MARKS.mediator,
        data: { values: input.mediatorTurns.map((turn) => ({ series: "mediator turn", turn })) },
        mark: { type: "rule", color: "#8c959f", strokeDash: [4, 3] },
        encoding: { x, tooltip: [{ field: "turn", title: "mediator turn" }] },
      },
      {
        name: CONSENSUS_CHART_MARKS.lines,
        data: { values: rows },
        mark: { type: "line", point: true, strokeWidth: 2.5 },
        encoding: {
          x,
          y: { field: "consensus", type: "quantitative", title: "consensus, %", scale: { domain: [0, 100] } },
          color: {
            field: "series",
            type: "nominal",
            title: null,
            sort: domain,
            scale: { domain, range: input.series.map((s) => s.color) },
            legend: BOTTOM_LEGEND,
          },
          strokeDash: {
            field: "series",
            type: "nominal",
            sort: domain,
            scale: { domain, range: input.series.map((s) => (s.dashed ? [6, 4] : [])) },
            legend: null,
          },
          tooltip: [
            { field: "series" },
            { field: "turn" },
            { field: "consensus", title: "consensus, %", format: ".1f" },
          ],
        },
      },
    ],
  } as unknown as TopLevelSpec;
}

/** One point of the alignment scatter: a method's value on a unit against the expert mean there (both 1–5). */
export interface AlignmentPoint {
  method: string;
  unit: string;
  expert: number;
  value: number;
}

/**
 * The scatter's points: each method's value on each outcome unit (a run's final snippet, per topic) against the expert
 * mean there. Outcome units only: one per (run, topic), where trajectory units would put thousands of points (and rows
 * in the data table) on a large study's page.
 */
export function alignmentPoints(table: AlignmentTable): AlignmentPoint[] {
  return table.rows.flatMap((row) =>
    table.units.flatMap((u, i) => {
      const value = row.values[i];
      if (!u.isLastSnippet || value === null || value === undefined) return [];
      return [{ method: row.label, unit: `${u.runId} · ${u.topicId}`, expert: u.reference, value }];
    }),
  );
}

export function alignmentScatterSpec(points: readonly AlignmentPoint[], title: string): TopLevelSpec {
  const methods = [...new Set(points.map((p) => p.method))];
  const scale = { domain: [1, 5] };
  const axis = (field: string, name: string) => ({ field, type: "quantitative", title: name, scale }) as const;
  return {
    ...CHART_BASE,
    title: {
      text: title,
      subtitle: ["each point one (snippet, topic) of a final snippet;", "on the dashed line they agree"],
    },
    width: 360,
    height: 300,
    layer: [
      {
        // Decorative (the subtitle says what it is): no accessible mark of its own, so no unnamed graphic. One datum
        // of its own: a layer without data draws nothing (the line was missing until a test found its empty group).
        data: { values: [{}] },
        mark: { type: "rule", color: "#8c959f", strokeDash: [4, 4], aria: false },
        // The scale here too: a datum's default scale starts at 0, and layers share their scales.
        encoding: { x: { datum: 1, scale }, y: { datum: 1, scale }, x2: { datum: 5 }, y2: { datum: 5 } },
      },
      {
        data: { values: points },
        mark: { type: "point", filled: true, size: 50, opacity: 0.7 },
        encoding: {
          x: axis("expert", "expert mean (1–5)"),
          y: axis("value", "method's score (1–5)"),
          // One legend for colour and shape (same field, same legend): the scatter had none while the shape's was off.
          color: {
            field: "method",
            type: "nominal",
            title: null,
            sort: methods,
            scale: { range: OKABE_ITO },
            legend: BOTTOM_LEGEND,
          },
          shape: { field: "method", type: "nominal", title: null, sort: methods, legend: BOTTOM_LEGEND },
          tooltip: [
            { field: "method" },
            { field: "unit" },
            { field: "expert", title: "expert mean", format: ".2f" },
            { field: "value", title: "score", format: ".2f" },
          ],
        },
      },
    ],
    config: { ...CHART_BASE.config, legend: { ...CHART_BASE.config.legend, ...BOTTOM_LEGEND } },
  } as TopLevelSpec;
}

/** One dot with its interval, on a percent scale. */
export interface IntervalDot {
  label: string;
  /** Percent, null without data. */
  estimate: number | null;
  low: number | null;
  high: number | null;
  n: number;
}

/** A proportion as a dot with Wilson's 95% score interval, in percent. */
export function proportionDot(label: string, successes: number, n: number): IntervalDot {
  const ci = wilsonInterval(successes, n);
  return {
    label,
    estimate: n > 0 ? (successes / n) * 100 : null,
    low: ci ? ci[0] * 100 : null,
    high: ci ? ci[1] * 100 : null,
    n,
  };
}

/** Dots with their 95% intervals, one row per label; `interval` names the kind (it is the tooltip's title). */
export function intervalDotsSpec(o: {
  title: string;
  /** One string per line (a phone's drawing is narrow). */
  subtitle: string[];
  dots: readonly IntervalDot[];
  xTitle: string;
  interval: string;
  domain?: [number, number];
}): TopLevelSpec {
  const order = o.dots.map((d) => d.label);
  // Room for a crowd worker's name ("prolific worker 5f3a9b2c8d1e7f6a"): a limit of 120 cut every "link worker …"
  // to the same label.
  const y = { field: "label", type: "nominal", title: null, sort: order, axis: { labelLimit: 320 } } as const;
  const x = { field: "estimate", type: "quantitative", title: o.xTitle, scale: { domain: o.domain ?? [0, 100] } };
  return {
    ...CHART_BASE,
    title: { text: o.title, subtitle: o.subtitle },
    data: { values: o.dots.filter((d) => d.estimate !== null) },
    width: 360,
    height: { step: 28 },
    layer: [
      {
        // The interval is read with its dot (the dot's label and the data table give low and high).
        mark: { type: "rule", strokeWidth: 2, color: "#57606a", aria: false },
        encoding: { y, x: { ...x, field: "low" }, x2: { field: "high" } },
      },
      {
        mark: { type: "point", filled: true, size: 80, color: OKABE_ITO[0] },
        encoding: {
          y,
          x,
          tooltip: [
            { field: "label", title: "row" },
            { field: "estimate", title: "estimate", format: ".1f" },
            { field: "low", title: `${o.interval} low`, format: ".1f" },
            { field: "high", title: `${o.interval} high`, format: ".1f" },
            { field: "n" },
          ],
        },
      },
    ],
  } as TopLevelSpec;
}

/** Persona fidelity per simulator backbone (pairs whose majority names the higher level), with Wilson intervals. */
export function fidelityDotsSpec(rows: readonly { backbone: string; correct: number; pairs: number }[]): TopLevelSpec {
  return intervalDotsSpec({
    title: "Persona fidelity per simulator backbone",
    subtitle: ["share of pairs whose majority names", "the higher level; bars: Wilson 95% interval"],
    dots: rows.map((r) => proportionDot(r.backbone, r.correct, r.pairs)),
    xTitle: "fidelity, %",
    interval: "Wilson 95%",
  });
}

/** Gold accuracy per annotator (gold items passed of attempted), with Wilson intervals. */
export function goldDotsSpec(rows: readonly { name: string; passed: number; attempted: number }[]): TopLevelSpec {
  return intervalDotsSpec({
    title: "Gold accuracy per annotator",
    subtitle: ["gold items passed of those attempted;", "bars: Wilson 95% interval"],
    dots: rows.map((r) => proportionDot(r.name, r.passed, r.attempted)),
    xTitle: "gold accuracy, %",
    interval: "Wilson 95%",
  });
}

/**
 * Figure 5 of the paper as a Vega-Lite spec: consensus (0–100 %) by snippet position, one line
 * per series of a ConsensusTrend (expert mean, each evaluator backbone, the per-turn baseline, the
 * crowd). The expert mean is the line the others are read against, so it is drawn strongest (black,
 * thickest); the baseline is dashed and the crowd dotted, so the lines part in greyscale too.
 * The dashboard and `validate-evaluator` draw it to the same SVG with renderChartSvg.
 */
import type { TopLevelSpec } from "vega-lite";
import { CHART_BASE, OKABE_ITO, type ChartRow } from "../benchmark/charts/style.ts";
import type { ConsensusTrend, TrendSeries } from "./trend.ts";

export interface TrendChartOptions {
  title?: string;
  /**
   * Series keys to draw, in this order (default: every series, in the trend's order); keys the trend lacks are skipped.
   */
  only?: readonly string[];
}

interface Look {
  color: string;
  dash: number[];
  width: number;
}

const EXPERT: Look = { color: "#000000", dash: [], width: 3.5 };
const BASELINE: Look = { color: OKABE_ITO[3], dash: [6, 4], width: 2 };
const CROWD: Look = { color: OKABE_ITO[1], dash: [2, 3], width: 2 };
/** Evaluator backbones: the palette without the colours the baseline, crowd and expert mean use. */
const EVALUATOR_COLORS = OKABE_ITO.filter((c) => ![BASELINE.color, CROWD.color, EXPERT.color].includes(c));

function looks(series: readonly TrendSeries[]): Look[] {
  let evaluators = 0;
  return series.map((s) => {
    if (s.method === "expert") return EXPERT;
    if (s.method === "baseline") return BASELINE;
    if (s.method === "crowd") return CROWD;
    return { color: EVALUATOR_COLORS[evaluators++ % EVALUATOR_COLORS.length], dash: [], width: 2 };
  });
}

/** The series to draw: `only`'s keys in its order, a key the trend lacks (e.g. no baseline stored) left out. */
function chosenSeries(trend: ConsensusTrend, only?: readonly string[]): TrendSeries[] {
  if (!only) return trend.series;
  const byKey = new Map(trend.series.map((s) => [s.key, s]));
  return only.flatMap((k) => byKey.get(k) ?? []);
}

/** One row per (series, position) with a value: consensus in percent, the units it averages over. */
export function trendChartRows(series: readonly TrendSeries[]): ChartRow[] {
  return series.flatMap((s) =>
    s.points
      .filter((p) => p.mean !== null)
      .map((p) => ({ position: p.position, series: s.label, consensus: (p.mean as number) * 100, n: p.n })),
  );
}

/**
 * Figure 5: consensus (0–100 %) by snippet position, one line per series (expert mean, evaluators, baseline, crowd).
 */
export function trendChartSpec(trend: ConsensusTrend, options: TrendChartOptions = {}): TopLevelSpec {
  const series = chosenSeries(trend, options.only);
  const look = looks(series);
  const domain = series.map((s) => s.label);
  const legend = {
    title: null,
    orient: "bottom",
    direction: "vertical",
    symbolType: "stroke",
    symbolSize: 400,
  } as const;
  return {
    ...CHART_BASE,
    title: options.title ?? "Consensus by snippet position",
    data: { values: trendChartRows(series) },
    width: 520,
    height: 260,
    mark: { type: "line", point: true },
    encoding: {
      x: {
        field: "position",
        type: "quantitative",
        title: "snippet position",
        axis: { tickMinStep: 1, format: "d" },
        scale: { zero: false, nice: false },
      },
      y: {
        field: "consensus",
        type: "quantitative",
        title: "consensus, (score − 1) / 4, %",
        scale: { domain: [0, 100] },
      },
      color: {
        field: "series",
        type: "nominal",
        sort: domain,
        scale: { domain, range: look.map((l) => l.color) },
        legend,
      },
      strokeDash: {
        field: "series",
        type: "nominal",
        sort: domain,
        scale: { domain, range: look.map((l) => l.dash) },
        legend,
      },
      strokeWidth: {
        field: "series",
        type: "nominal",
        sort: domain,
        scale: { domain, range: look.map((l) => l.width) },
        legend,
      },
      tooltip: [{ field: "series" }, { field: "position" }, { field: "consensus", format: ".1f" }, { field: "n" }],
    },
  } as TopLevelSpec;
}

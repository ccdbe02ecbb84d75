/**
 * Draws a Vega-Lite chart (a spec from app/domain/benchmark/charts) to an SVG document with the
 * Vega runtime, headless: the CLI writes it to a file and the Benchmark page inlines the very
 * same markup, so a chart looks the same in a report and in the browser. A mark with an `href`
 * encoding becomes a link in the SVG.
 */
import * as vega from "vega";
import { compile, type TopLevelSpec } from "vega-lite";

/** The look every chart shares: legible in print (≥ 11 px text), no chart-junk. */
const CHART_CONFIG = {
  font: "system-ui, -apple-system, 'Segoe UI', sans-serif",
  axis: { labelFontSize: 11, titleFontSize: 12, grid: true, gridOpacity: 0.4 },
  legend: { labelFontSize: 11, titleFontSize: 12 },
  header: { labelFontSize: 12, titleFontSize: 12 },
  title: { fontSize: 14, anchor: "start" as const },
  view: { stroke: "#ddd" },
};

export async function renderChartSvg(spec: TopLevelSpec): Promise<string> {
  const compiled = compile({ ...spec, config: { ...CHART_CONFIG, ...(spec.config ?? {}) } } as TopLevelSpec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

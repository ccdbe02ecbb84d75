/**
 * The dashboard's chart drawings kept out of the data a browser gets with the page. A document inlines its loader data
 * for hydration, and the drawings (a wide and a narrow SVG per chart, hundreds of kB for a large study) were most of
 * it, on top of the same markup in the HTML: encoding them again for every document was most of a cached page's time.
 * The server render still reads them (it gets the loader's own objects); the browser hydrates them from the HTML, and
 * on a client navigation fetches them beside the page data (admin.studies.$studyId.charts.ts).
 */
import type { DashboardCharts, RenderedChart } from "../../domain/charts/chart-data.ts";
import { asJsonData } from "../http/responses.server.ts";

type Drawings = Pick<RenderedChart, "svg" | "narrowSvg">;

/** A chart whose drawings are there to read but not own enumerable keys, which the data's encoder does not send. */
function withUnsentDrawings(chart: RenderedChart): RenderedChart {
  const sent = asJsonData({ title: chart.title, data: chart.data });
  return Object.defineProperties(sent, {
    svg: { value: chart.svg, enumerable: false },
    narrowSvg: { value: chart.narrowSvg, enumerable: false },
  }) as RenderedChart;
}

const pageCharts = new WeakMap<DashboardCharts, Partial<Record<string, Omit<RenderedChart, keyof Drawings>>>>();

/**
 * The charts as the page's loader returns them, made once per cached charts object. Typed without the drawings: the
 * browser's copy has none until it fetches them.
 */
export function chartsWithoutDrawings(
  charts: DashboardCharts,
): Partial<Record<string, Omit<RenderedChart, keyof Drawings>>> {
  let shown = pageCharts.get(charts);
  if (!shown) {
    shown = Object.fromEntries(Object.entries(charts).flatMap(([k, c]) => (c ? [[k, withUnsentDrawings(c)]] : [])));
    pageCharts.set(charts, shown);
  }
  return shown;
}

const drawingsText = new WeakMap<DashboardCharts, string>();

/** Every chart's two drawings by key as JSON, made once per cached charts object. */
export function chartDrawingsJson(charts: DashboardCharts): string {
  let text = drawingsText.get(charts);
  if (text === undefined) {
    const drawings: Record<string, Drawings> = {};
    for (const [k, c] of Object.entries(charts)) if (c) drawings[k] = { svg: c.svg, narrowSvg: c.narrowSvg };
    text = JSON.stringify(drawings);
    drawingsText.set(charts, text);
  }
  return text;
}

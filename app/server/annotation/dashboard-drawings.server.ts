/**
 * The dashboard's chart drawings and data tables kept out of the data a browser gets with the page. A document inlines
 * its loader data for hydration, and the drawings (a wide and a narrow SVG per chart, hundreds of kB for a large study)
 * and the tables' rows were most of it, on top of the same markup in the HTML: encoding them again for every document
 * was most of a cached page's time. The server render still reads them (it gets the loader's own objects); the browser
 * hydrates them from the HTML, and on a client navigation fetches them beside the page data
 * (admin.studies.$studyId.charts.ts). The downloads are links to that route too, not data: links that put each drawing
 * (and the CSV) in the HTML once more. A table's markup comes from the caller (`TableMarkup`: the components render it,
 * once per chart), not from a render on every request.
 */
import { chartCsv, type DashboardCharts, type RenderedChart } from "../../domain/charts/chart-data.ts";
import { asJsonData } from "../http/responses.server.ts";

/** What the browser's copy of the page data leaves out of each chart. */
interface Drawings {
  svg: string;
  narrowSvg: string;
  tableHtml: string;
}
interface PageChart {
  title: string;
  downloads: { csv: string; svg: string };
}

/** A chart's data table as markup (components/charts/chart-table-markup.server.ts). */
type TableMarkup = (chart: RenderedChart) => string;

const drawings = (chart: RenderedChart, table: TableMarkup): Drawings => ({
  svg: chart.svg,
  narrowSvg: chart.narrowSvg,
  tableHtml: table(chart),
});

/**
 * A chart whose drawings and table are there to read but not own enumerable keys, which the data's encoder does not
 * send; `address(format)` is its download's.
 */
function withUnsentDrawings(
  chart: RenderedChart,
  table: TableMarkup,
  address: (format: "csv" | "svg") => string,
): PageChart {
  const sent = asJsonData({ title: chart.title, downloads: { csv: address("csv"), svg: address("svg") } });
  const unsent = Object.entries(drawings(chart, table)).map(([k, value]) => [k, { value, enumerable: false }]);
  return Object.defineProperties(sent, Object.fromEntries(unsent));
}

const pageCharts = new WeakMap<DashboardCharts, { route: string; shown: Partial<Record<string, PageChart>> }>();

/**
 * The charts as the page's loader returns them, made once per cached charts object; `route` is the charts route's
 * address with the view's query (a download is `route` plus `download=<key>.<csv|svg>`). Typed without the drawings:
 * the browser's copy has none until it fetches them.
 */
export function chartsWithoutDrawings(
  charts: DashboardCharts,
  table: TableMarkup,
  route: string,
): Partial<Record<string, PageChart>> {
  let made = pageCharts.get(charts);
  if (made?.route !== route) {
    const link = (key: string) => (format: string) =>
      `${route}${route.includes("?") ? "&" : "?"}download=${encodeURIComponent(`${key}.${format}`)}`;
    const shown = Object.fromEntries(
      Object.entries(charts).flatMap(([k, c]) => (c ? [[k, withUnsentDrawings(c, table, link(k))]] : [])),
    );
    made = { route, shown };
    pageCharts.set(charts, made);
  }
  return made.shown;
}

/** A chart's download named `<key>.<csv|svg>` (null: no such chart or format). */
export function chartDownload(charts: DashboardCharts, file: string): { type: string; body: string } | null {
  const [, key, format] = /^(\w+)\.(csv|svg)$/.exec(file) ?? [];
  const chart = key ? charts[key] : undefined;
  if (!chart) return null;
  return format === "svg"
    ? { type: "image/svg+xml; charset=utf-8", body: chart.svg }
    : { type: "text/csv; charset=utf-8", body: chartCsv(chart.data) };
}

const drawingsText = new WeakMap<DashboardCharts, string>();

/** Every chart's two drawings and table markup by key as JSON, made once per cached charts object. */
export function chartDrawingsJson(charts: DashboardCharts, table: TableMarkup): string {
  let text = drawingsText.get(charts);
  if (text === undefined) {
    const byKey: Record<string, Drawings> = {};
    for (const [k, c] of Object.entries(charts)) if (c) byKey[k] = drawings(c, table);
    text = JSON.stringify(byKey);
    drawingsText.set(charts, text);
  }
  return text;
}

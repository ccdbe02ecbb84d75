/**
 * The dashboard's chart drawings kept out of the data a browser gets with the page. A document inlines its loader data
 * for hydration, and the drawings (a wide and a narrow SVG per chart, hundreds of kB for a large study) were most of
 * it, on top of the same markup in the HTML: encoding them again for every document was most of a cached page's time.
 * The server render still reads them (it gets the loader's own objects); the browser hydrates them from the HTML, and
 * on a client navigation fetches them beside the page data (admin.studies.$studyId.charts.ts). The downloads are
 * links to that route too, not data: links that put each drawing (and the CSV) in the HTML once more.
 */
import { chartCsv, type DashboardCharts, type RenderedChart } from "../../domain/charts/chart-data.ts";
import { asJsonData } from "../http/responses.server.ts";

type Drawings = Pick<RenderedChart, "svg" | "narrowSvg">;
type PageChart = Omit<RenderedChart, keyof Drawings> & { downloads: { csv: string; svg: string } };

/**
 * A chart whose drawings are there to read but not own enumerable keys, which the data's encoder does not send;
 * `address(format)` is its download's.
 */
function withUnsentDrawings(chart: RenderedChart, address: (format: "csv" | "svg") => string): PageChart {
  const downloads = { csv: address("csv"), svg: address("svg") };
  const sent = asJsonData({ title: chart.title, data: chart.data, downloads });
  return Object.defineProperties(sent, {
    svg: { value: chart.svg, enumerable: false },
    narrowSvg: { value: chart.narrowSvg, enumerable: false },
  });
}

const pageCharts = new WeakMap<DashboardCharts, { route: string; shown: Partial<Record<string, PageChart>> }>();

/**
 * The charts as the page's loader returns them, made once per cached charts object; `route` is the charts route's
 * address with the view's query (a download is `route` plus `download=<key>.<csv|svg>`). Typed without the drawings:
 * the browser's copy has none until it fetches them.
 */
export function chartsWithoutDrawings(charts: DashboardCharts, route: string): Partial<Record<string, PageChart>> {
  let made = pageCharts.get(charts);
  if (made?.route !== route) {
    const link = (key: string) => (format: string) =>
      `${route}${route.includes("?") ? "&" : "?"}download=${encodeURIComponent(`${key}.${format}`)}`;
    const shown = Object.fromEntries(
      Object.entries(charts).flatMap(([k, c]) => (c ? [[k, withUnsentDrawings(c, link(k))]] : [])),
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

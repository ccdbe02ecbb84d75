/**
 * Draws a Vega-Lite chart (a spec from app/domain/benchmark/charts) to an SVG document with the
 * Vega runtime, headless: the CLI writes it to a file and the Benchmark page inlines the very
 * same markup, so a chart looks the same in a report and in the browser. A mark with an `href`
 * encoding becomes a link in the SVG; a mark with a `tooltip` gets a native `<title>` per item,
 * so hovering shows the tooltip without any client-side Vega (see withHoverTitles).
 */
import type { TopLevelSpec } from "vega-lite";
import { withRoundedHover } from "../../domain/charts/hover.ts";
import { chartData, narrowChartSpec, type RenderedChart } from "../../domain/charts/chart-data.ts";
import { CHART_FONT, vegaTextWidth } from "../../domain/charts/text-width.ts";

/** The look every chart shares: legible in print (≥ 11 px text), no chart-junk. */
const CHART_CONFIG = {
  font: CHART_FONT,
  axis: { labelFontSize: 11, titleFontSize: 12, grid: true, gridOpacity: 0.4 },
  legend: { labelFontSize: 11, titleFontSize: 12 },
  header: { labelFontSize: 12, titleFontSize: 12 },
  title: { fontSize: 14, anchor: "start" as const },
  view: { stroke: "#ddd" },
};

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The house look under a spec's own config, merged a section at a time: a spec (or the narrow drawing) that sets one
 * thing of its legends or titles keeps the house fonts and anchor for the rest.
 */
function withHouseConfig(own: object | undefined): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...CHART_CONFIG };
  for (const [key, value] of Object.entries(own ?? {})) {
    const house = merged[key];
    merged[key] = isRecord(house) && isRecord(value) ? { ...house, ...value } : value;
  }
  return merged;
}

/**
 * Vega and Vega-Lite (some 60 packages), imported on the first chart: a CLI command that draws no chart (`socrates db`,
 * `import`) or a server that has drawn none yet does not pay for loading them.
 */
let runtime: Promise<[typeof import("vega"), typeof import("vega-lite")]> | undefined;

async function loadRuntime(): Promise<[typeof import("vega"), typeof import("vega-lite")]> {
  const [vega, vegaLite] = await Promise.all([import("vega"), import("vega-lite")]);
  // Without a canvas Vega guesses 0.8 em a character; measure by font metrics instead (text-width.ts). Vega exports
  // vega-scenegraph's textMetrics, which its typings leave out.
  (vega as unknown as { textMetrics: { width: typeof vegaTextWidth } }).textMetrics.width = vegaTextWidth;
  return [vega, vegaLite];
}

export async function renderChartSvg(spec: TopLevelSpec): Promise<string> {
  runtime ??= loadRuntime();
  const [vega, { compile }] = await runtime;
  const rounded = withRoundedHover(spec);
  const compiled = compile({ ...rounded, config: withHouseConfig(spec.config) } as TopLevelSpec).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: "none" });
  try {
    return withHoverTitles(await view.toSVG(), tooltipMarkNames(compiled));
  } finally {
    view.finalize();
  }
}

/**
 * A chart for a page (issue 32): drawn for a wide and a narrow screen (the page shows one by its width), with the
 * spec's data for the "Show data" table and the CSV download.
 */
export async function renderChart(spec: TopLevelSpec): Promise<RenderedChart> {
  const [svg, narrowSvg] = await Promise.all([renderChartSvg(spec), renderChartSvg(narrowChartSpec(spec))]);
  const text = typeof spec.title === "object" && !Array.isArray(spec.title) ? spec.title.text : spec.title;
  const title = Array.isArray(text) ? text.join(" ") : typeof text === "string" ? text : "Chart";
  return { title, svg, narrowSvg, data: chartData(spec) };
}

/** Marks drawn as one element for many data: their single label names only the first datum, so they get no title. */
const MULTI_DATUM_MARKS = new Set(["line", "area", "trail", "group"]);

interface VegaMarkLike {
  name?: string;
  type?: string;
  encode?: Record<string, Record<string, unknown> | undefined>;
  marks?: VegaMarkLike[];
}

/**
 * The names of the compiled spec's one-element-per-datum marks that encode a tooltip (at any depth, e.g. inside
 * facets).
 */
export function tooltipMarkNames(spec: { marks?: VegaMarkLike[] }): Set<string> {
  const names = new Set<string>();
  const walk = (marks: VegaMarkLike[] = []) => {
    for (const mark of marks) {
      const encodes = Object.values(mark.encode ?? {});
      if (mark.name && !MULTI_DATUM_MARKS.has(mark.type ?? "") && encodes.some((e) => e && "tooltip" in e))
        names.add(mark.name);
      walk(mark.marks);
    }
  };
  walk(spec.marks);
  return names;
}

/** An item's ARIA attributes, which its title replaces. */
const ITEM_ARIA = /\s(?:aria-label|aria-roledescription|role)="[^"]*"/g;

/**
 * Gives every item of the named marks a `<title>` child carrying its aria-label — Vega fills
 * that label from the tooltip fields and has already escaped it for an attribute (`&`, `<`,
 * `>`, `"`), which is equally safe as element text. A browser shows a `<title>` on hover, and the
 * title is the item's accessible name in SVG, so the item's own ARIA attributes go: they said the
 * same again (the dashboard's scatter: ~150 bytes a point, twice per drawing). Pages show a drawing
 * inside `role="img"` with the data table beside it, so its points are not read one by one there.
 */
export function withHoverTitles(svg: string, markNames: ReadonlySet<string>): string {
  if (markNames.size === 0) return svg;
  // A non-group mark's container holds only its items, each one empty element. A mark without items is one empty
  // `<g …/>`, which must not open a container (it took the next mark's items as its own, and their titles with them).
  return svg.replace(
    /(<g class="mark-[\w-]+ role-mark ([^"]*)"(?:[^>]*[^/>])?>)([\s\S]*?)(<\/g>)/g,
    (whole, open: string, classes: string, items: string, close: string) => {
      if (!classes.split(" ").some((c) => markNames.has(c))) return whole;
      const titled = items.replace(
        /<(\w+)((?:\s[^<>]*?)?\saria-label="([^"]*)"[^<>]*?)\/>/g,
        (_item, tag: string, attrs: string, label: string) =>
          `<${tag}${attrs.replace(ITEM_ARIA, "")}><title>${label}</title></${tag}>`,
      );
      return open + titled + close;
    },
  );
}

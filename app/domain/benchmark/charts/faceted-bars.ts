/**
 * Grouped bars in small multiples: the shape of Figures 2, 3 and 6 (the paper draws radar charts;
 * Vega-Lite has none, and bars read better in print). One panel per facet value, x = a category,
 * bars within an x side by side when `offset` is given, and the 95% CI as a rule when present.
 */
import type { TopLevelSpec } from "vega-lite";
import { CHART_BASE, colorScale, type ChartRow } from "./style.ts";

export interface FacetedBarsOptions {
  title: string;
  rows: ChartRow[];
  facet: { field: string; title: string; columns?: number; order?: string[] };
  x: { field: string; title: string; order: string[]; independent?: boolean };
  y: { field: string; title: string | string[] }; // an array: one line each (a long title on a short panel)
  color: { field: string; title: string; order: string[] };
  /** Side-by-side bars within one x (else the bars are coloured by x itself). */
  offset?: boolean;
  ci?: { low: string; high: string };
}

export function facetedBars(o: FacetedBarsOptions): TopLevelSpec {
  const x = {
    field: o.x.field,
    type: "nominal" as const,
    title: o.x.title,
    sort: o.x.order,
    axis: { labelAngle: -30 },
  };
  const layer: unknown[] = [
    {
      mark: { type: "bar" },
      encoding: {
        x,
        y: { field: o.y.field, type: "quantitative", title: o.y.title },
        color: { field: o.color.field, type: "nominal", title: o.color.title, sort: o.color.order, scale: colorScale },
        ...(o.offset ? { xOffset: { field: o.color.field, sort: o.color.order } } : {}),
        tooltip: [{ field: o.color.field }, { field: o.x.field }, { field: o.y.field, format: ".1f" }, { field: "n" }],
      },
    },
  ];
  if (o.ci) {
    layer.push({
      mark: { type: "rule", color: "#333" },
      encoding: {
        x,
        ...(o.offset ? { xOffset: { field: o.color.field, sort: o.color.order } } : {}),
        y: { field: o.ci.low, type: "quantitative" },
        y2: { field: o.ci.high },
      },
    });
  }
  return {
    ...CHART_BASE,
    title: o.title,
    data: { values: o.rows },
    facet: {
      field: o.facet.field,
      type: "nominal",
      title: o.facet.title,
      ...(o.facet.order ? { sort: o.facet.order } : {}),
    },
    ...(o.facet.columns ? { columns: o.facet.columns } : {}),
    // Side-by-side bars need a width per bar (a fixed panel width squeezes them to hairlines).
    spec: { width: o.offset ? { step: 14 } : 180, height: 140, layer },
    ...(o.x.independent ? { resolve: { scale: { x: "independent" } } } : {}),
  } as TopLevelSpec;
}

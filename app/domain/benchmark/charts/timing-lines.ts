/** Figure 4's shape: mean IE per progress bin as one line per mediator, one panel per condition group. */
import type { TopLevelSpec } from "vega-lite";
import { CHART_BASE, colorScale, type ChartRow } from "./style.ts";

export function timingLines(o: {
  title: string;
  rows: ChartRow[];
  groups: string[];
  bins: string[];
  mediators: string[];
}): TopLevelSpec {
  return {
    ...CHART_BASE,
    title: o.title,
    data: { values: o.rows },
    facet: { field: "group", type: "nominal", title: "condition", sort: o.groups },
    columns: 3,
    spec: {
      width: 200,
      height: 140,
      mark: { type: "line", point: true },
      encoding: {
        x: { field: "bin", type: "ordinal", title: "progress p = m/T", sort: o.bins, axis: { labelAngle: -30 } },
        y: { field: "ie", type: "quantitative", title: ["intervention", "effectiveness ×100"] },
        color: { field: "mediator", type: "nominal", title: "mediator", sort: o.mediators, scale: colorScale },
        tooltip: [{ field: "mediator" }, { field: "bin" }, { field: "ie", format: ".1f" }, { field: "count" }],
      },
    },
  } as TopLevelSpec;
}

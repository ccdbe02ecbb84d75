/**
 * A chart's data table (ChartFrame's ChartTableContent) rendered to markup, once per chart object: the dashboard hands
 * a cached chart to every request, and a large study's table was thousands of elements to render each time.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { RenderedChart } from "../../domain/charts/chart-data.ts";
import { ChartTableContent } from "./ChartFrame.tsx";

const made = new WeakMap<RenderedChart, string>();

export function chartTableMarkup(chart: RenderedChart): string {
  let html = made.get(chart);
  if (html === undefined) {
    html = renderToStaticMarkup(createElement(ChartTableContent, { title: chart.title, data: chart.data }));
    made.set(chart, html);
  }
  return html;
}

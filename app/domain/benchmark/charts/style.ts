/**
 * What every report chart shares: the Okabe–Ito palette (distinguishable with the common forms
 * of colour blindness, and in greyscale by position), text ≥ 11 px, a white background, legend
 * labels never cut short (mediator names are how readers tell the lines apart).
 */
export const OKABE_ITO = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#56B4E9", "#CC79A7", "#F0E442", "#000000"];

export const CHART_BASE = {
  $schema: "https://vega.github.io/schema/vega-lite/v5.json",
  background: "white",
  config: {
    axis: { labelFontSize: 11, titleFontSize: 12 },
    legend: { labelFontSize: 11, titleFontSize: 12, labelLimit: 0 },
    header: { labelFontSize: 12, titleFontSize: 12 },
  },
} as const;

export const colorScale = { range: OKABE_ITO };

export type ChartRow = Record<string, string | number | null>;

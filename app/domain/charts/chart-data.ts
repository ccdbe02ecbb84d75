/**
 * What every chart offers beside its picture (issue 32): its data as a table and a CSV, taken
 * from the inline data of the Vega-Lite spec it was drawn from, and the narrow variant of the
 * spec a phone gets (one column of panels, a small width, legends below).
 */
import type { TopLevelSpec } from "vega-lite";

export type ChartCell = string | number | boolean | null;

export interface ChartData {
  columns: string[];
  rows: ChartCell[][];
}

interface SpecNode {
  data?: { values?: unknown };
  layer?: SpecNode[];
  spec?: SpecNode;
  width?: unknown;
  columns?: number;
  facet?: unknown;
  config?: Record<string, unknown>;
}

function inlineRows(node: SpecNode | undefined, into: Record<string, unknown>[]): void {
  if (!node) return;
  const values = node.data?.values;
  if (Array.isArray(values)) for (const v of values) if (v && typeof v === "object") into.push(v);
  for (const layer of node.layer ?? []) inlineRows(layer, into);
  inlineRows(node.spec, into);
}

const cell = (v: unknown): ChartCell =>
  v === undefined || v === null ? null : typeof v === "number" || typeof v === "boolean" ? v : String(v);

/** Every inline datum of the spec (top level, layers, a facet's inner spec), columns in first-seen order. */
export function chartData(spec: TopLevelSpec): ChartData {
  const objects: Record<string, unknown>[] = [];
  inlineRows(spec as SpecNode, objects);
  const columns: string[] = [];
  for (const o of objects) for (const k of Object.keys(o)) if (!columns.includes(k)) columns.push(k);
  return { columns, rows: objects.map((o) => columns.map((c) => cell(o[c]))) };
}

const csvField = (v: ChartCell): string => {
  const s = v === null ? "" : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** RFC 4180 CSV with full precision (the table on the page rounds; a download should not). */
export function chartCsv(data: ChartData): string {
  return [data.columns, ...data.rows].map((r) => r.map(csvField).join(",")).join("\r\n") + "\r\n";
}

/** A number as the data table shows it: at most three decimals, no trailing zeros. */
export function tableCell(v: ChartCell): string {
  if (v === null) return "—";
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : String(Number(v.toFixed(3)));
  return String(v);
}

/** A legend label's longest drawing on a phone, px. */
const NARROW_LABEL_LIMIT = 220;

/** The width a phone's chart gets (a 390 px screen less the page's padding and the axes). */
export const NARROW_WIDTH = 200;

/**
 * The spec for a narrow screen: panels of a facet in one column, a numeric width cut to NARROW_WIDTH (a step width is
 * kept: its bars need it), legends below the plot with labels cut to the plot's width plus the axis (an ellipsis; the
 * data table has them in full), titles likewise.
 */
export function narrowChartSpec(spec: TopLevelSpec): TopLevelSpec {
  const s = structuredClone(spec) as SpecNode;
  const shrink = (node: SpecNode | undefined) => {
    if (node && typeof node.width === "number") node.width = Math.min(node.width, NARROW_WIDTH);
  };
  shrink(s);
  if (s.facet || s.columns !== undefined) {
    s.columns = 1;
    shrink(s.spec);
  }
  const config = s.config ?? {};
  const legend = (config.legend ?? {}) as Record<string, unknown>;
  const title = (config.title ?? {}) as Record<string, unknown>;
  s.config = {
    ...config,
    legend: { ...legend, orient: "bottom", direction: "vertical", labelLimit: NARROW_LABEL_LIMIT },
    title: { ...title, limit: NARROW_WIDTH + NARROW_LABEL_LIMIT / 2 },
  };
  return s as TopLevelSpec;
}

/** A chart as the pages show it: drawn for wide and narrow screens, with its data for the table and the CSV. */
export interface RenderedChart {
  title: string;
  svg: string;
  narrowSvg: string;
  data: ChartData;
}

/** A page's drawn charts by key ("trend", "alignment", "fidelity", "gold"); a chart without data is left out. */
export type DashboardCharts = Partial<Record<string, RenderedChart>>;

/**
 * Rounded hover text. A drawn point's hover title is its aria-label (render.server.ts), which
 * Vega-Lite builds from the encoded fields in full precision ("55.5555555556") whatever the
 * tooltip's format says. Each unit with a tooltip therefore gets a `description` computed from
 * its tooltip entries, formats applied; a unit that sets its own description keeps it.
 */
import type { TopLevelSpec } from "vega-lite";

interface TooltipEntry {
  field?: string;
  title?: string;
  format?: string;
}

interface Unit {
  encoding?: { tooltip?: TooltipEntry[]; description?: unknown } & Record<string, unknown>;
  transform?: unknown[];
  layer?: Unit[];
  spec?: Unit;
}

export const HOVER_FIELD = "__hover";

/** The Vega expression for one entry: "title: value", the value formatted when a format is given, "—" when null. */
function entryExpression(t: TooltipEntry & { field: string }): string {
  const value = `datum[${JSON.stringify(t.field)}]`;
  const shown = t.format ? `format(${value}, ${JSON.stringify(t.format)})` : `'' + ${value}`;
  return `${JSON.stringify(`${t.title ?? t.field}: `)} + (${value} == null ? '—' : ${shown})`;
}

export function hoverExpression(tooltip: readonly TooltipEntry[]): string | null {
  const entries = tooltip.filter((t): t is TooltipEntry & { field: string } => typeof t.field === "string");
  return entries.length === 0 ? null : entries.map(entryExpression).join(" + '; ' + ");
}

function visit(unit: Unit | undefined): void {
  if (!unit) return;
  const tooltip = unit.encoding?.tooltip;
  if (unit.encoding && Array.isArray(tooltip) && unit.encoding.description === undefined) {
    const expression = hoverExpression(tooltip);
    if (expression) {
      unit.transform = [...(unit.transform ?? []), { calculate: expression, as: HOVER_FIELD }];
      unit.encoding.description = { field: HOVER_FIELD };
    }
  }
  for (const layer of unit.layer ?? []) visit(layer);
  visit(unit.spec);
}

/** A copy of the spec whose units describe each mark by their rounded tooltip. */
export function withRoundedHover(spec: TopLevelSpec): TopLevelSpec {
  const copy = structuredClone(spec) as Unit;
  visit(copy);
  return copy as TopLevelSpec;
}

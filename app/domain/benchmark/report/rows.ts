/** Helpers the table builders share: mediator rows grouped by mode, labels, text cells. */
import type { ReportText } from "../report-model.ts";
import type { ReportInput } from "./input.ts";
import { MEDIATOR_MODES, type MediatorMode } from "../plan.ts";

/** The average's key: Table 3's (and the emotional-repair table's) Average row and Avg column. */
export const AVG = "avg";

const MODE_LABEL: Record<MediatorMode, string> = {
  generic: "generic mediator",
  social: "socially intelligent mediator",
  naive: "naive mediator",
};

/** The plan's mediators, grouped by mode in MEDIATOR_MODES order (generic first), in plan order within a group. */
export function mediatorRows(input: ReportInput): { key: string; label: string; group: string }[] {
  const order: readonly string[] = MEDIATOR_MODES;
  return [...input.mediators]
    .sort((a, b) => order.indexOf(a.mode) - order.indexOf(b.mode))
    .map((m) => ({ key: m.name, label: m.name, group: MODE_LABEL[m.mode] ?? m.mode }));
}

export function text(value: number | null, formatted: string): ReportText {
  return { text: formatted, value };
}

/** ×100 with one decimal, "–" for none. */
export function pct(value: number | null): string {
  return value === null ? "–" : (value * 100).toFixed(1);
}

/** A p-value as the reports print it: three decimals, "<0.001" below that, "–" when undefined. */
export function pValue(p: number | null): string {
  return p === null || Number.isNaN(p) ? "–" : p < 0.001 ? "<0.001" : p.toFixed(3);
}

/**
 * A correlation with its p ("0.71 (p 0.03)"), "–" when undefined; with the p's method when given
 * ("1.000 (p 0.333, exact)"), as rank correlations print it.
 */
export function withP(r: number | null, p: number | null, method?: string | null): string {
  if (r === null || Number.isNaN(r)) return "–";
  return `${r.toFixed(3)} (p ${pValue(p)}${method ? `, ${method}` : ""})`;
}

/** Groups items by a key, keeping first-seen order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/**
 * Figures 2, 3 and 6 (consensus gain by axis, its shift from general, and the simulator swap)
 * as data rows plus a Vega-Lite spec. Each row carries its mean ×100, n and CI, so the csv output
 * is the figure's data.
 */
import { CONDITION_AXES } from "../../bundle.ts";
import { facetedBars } from "../charts/faceted-bars.ts";
import type { ChartRow } from "../charts/style.ts";
import type { ReportCell, ReportFigure } from "../report-model.ts";
import { buildCell } from "./cells.ts";
import { judgedValue, mainSubjects, type ReportInput, type ReportSubject } from "./input.ts";

const CG_TITLE = "consensus gain ×100";
const x100 = (v: number | null) => (v === null ? null : Math.round(v * 1e4) / 100);

/** A cell as a figure's data fields: `{[field]: mean ×100, n, missing, ci_low, ci_high}`. */
export function cellFields(field: string, cell: ReportCell): ChartRow {
  return { [field]: x100(cell.mean), n: cell.n, missing: cell.missing, ci_low: x100(cell.ci?.[0] ?? null), ci_high: x100(cell.ci?.[1] ?? null) };
}

function cgCell(input: ReportInput, subjects: readonly ReportSubject[]) {
  return buildCell(subjects.map((s) => ({ value: judgedValue(s, input.evaluators[0], "CG"), scenarioId: s.scenarioId, runId: s.runId })), input.bootstrap);
}

function axesOf(subjects: readonly ReportSubject[]): string[] {
  const present = new Set(subjects.map((s) => s.axis));
  return CONDITION_AXES.filter((a) => present.has(a));
}

/** Rows {mediator, axis, cg, n, missing, ci_low, ci_high} for these subjects. */
function axisRows(input: ReportInput, subjects: readonly ReportSubject[], mediators: readonly string[], extra: ChartRow = {}): ChartRow[] {
  return mediators.flatMap((mediator) =>
    axesOf(subjects).flatMap((axis) => {
      const cell = cgCell(input, subjects.filter((s) => s.mediator === mediator && s.axis === axis));
      if (cell.n === 0) return [];
      return [{ mediator, axis, ...extra, ...cellFields("cg", cell) }];
    }),
  );
}

export function buildFigure2(input: ReportInput): ReportFigure {
  const subjects = mainSubjects(input);
  const mediators = input.mediators.map((m) => m.name);
  const axes = axesOf(subjects);
  const rows = axisRows(input, subjects, mediators);
  return {
    id: "figure2",
    title: "Figure 2: axis profile",
    caption: "Consensus gain of each mediator on the general condition and on each socio-cognitive axis (all variants of the axis pooled), with the 95% scenario-bootstrap CI.",
    spec: facetedBars({
      title: "Consensus gain by axis",
      rows,
      facet: { field: "mediator", title: "mediator", columns: 4, order: mediators },
      x: { field: "axis", title: "condition axis", order: axes },
      y: { field: "cg", title: CG_TITLE },
      color: { field: "axis", title: "axis", order: axes },
      ci: { low: "ci_low", high: "ci_high" },
    }),
  };
}

export const SHIFT_AXES = ["strategy", "emotion", "culture"] as const;

export function buildFigure3(input: ReportInput): ReportFigure {
  const subjects = mainSubjects(input);
  const mediators = input.mediators.map((m) => m.name);
  const rows: ChartRow[] = [];
  for (const mediator of mediators) {
    const own = subjects.filter((s) => s.mediator === mediator);
    const general = cgCell(input, own.filter((s) => s.axis === "general"));
    for (const axis of SHIFT_AXES) {
      const variants = [...new Set(own.filter((s) => s.axis === axis).map((s) => s.variant))];
      for (const variant of variants) {
        const cell = cgCell(input, own.filter((s) => s.axis === axis && s.variant === variant));
        if (cell.mean === null || general.mean === null) continue;
        rows.push({ axis, variant, mediator, shift: x100(cell.mean - general.mean), cg: x100(cell.mean), general: x100(general.mean), n: cell.n, n_general: general.n });
      }
    }
  }
  const variantOrder = [...new Set(rows.map((r) => String(r.variant)))];
  return {
    id: "figure3",
    title: "Figure 3: consensus gain shift from general",
    caption: "For each strategy, emotion and culture variant: the mediator's mean consensus gain on the variant minus its mean on the general condition (negative = the perturbation hurts).",
    spec: facetedBars({
      title: "Consensus gain shift from general",
      rows,
      facet: { field: "axis", title: "axis", columns: 3, order: [...SHIFT_AXES] },
      x: { field: "variant", title: "variant", order: variantOrder, independent: true },
      y: { field: "shift", title: ["CG shift ×100", "(variant − general)"] },
      color: { field: "mediator", title: "mediator", order: mediators },
      offset: true,
    }),
  };
}

export function buildFigure6(input: ReportInput): ReportFigure | null {
  if (input.ablationSimulators.length === 0) return null;
  const named = new Set(input.ablationSimulators.flatMap((a) => a.mediators));
  const mediators = input.mediators.map((m) => m.name).filter((m) => named.has(m));
  const main = mainSubjects(input);
  const rows = axisRows(input, main, mediators, { simulator: input.simulator });
  for (const alt of input.ablationSimulators) {
    const subjects = input.subjects.filter((s) => s.simulator === alt.model && s.part === "simulator");
    rows.push(...axisRows(input, subjects, alt.mediators, { simulator: alt.model }));
  }
  const simulators = [input.simulator, ...input.ablationSimulators.map((a) => a.model)];
  return {
    id: "figure6",
    title: "Figure 6: simulator swap",
    caption: `Consensus gain per axis of each mediator the ablation covers, with the disputants played by ${simulators.join(" and by ")} (the main evaluator judges both).`,
    spec: facetedBars({
      title: "Consensus gain by axis under each simulator",
      rows,
      facet: { field: "mediator", title: "mediator", columns: 3, order: mediators },
      x: { field: "axis", title: "condition axis", order: axesOf(main) },
      y: { field: "cg", title: CG_TITLE },
      color: { field: "simulator", title: "simulator", order: simulators },
      offset: true,
      ci: { low: "ci_low", high: "ci_high" },
    }),
  };
}

/** Figure 3: per strategy, emotion and culture variant, the mediator's consensus gain minus its gain on general. */
import { facetedBars } from "../domain/benchmark/charts/faceted-bars.ts";
import type { ChartRow } from "../domain/benchmark/charts/style.ts";
import type { ReportFigure } from "../domain/benchmark/report-model.ts";
import { cgCell, x100 } from "../domain/benchmark/report/figures.ts";
import { mainSubjects, type ReportInput } from "../domain/benchmark/report/input.ts";
import type { FigurePart } from "../domain/benchmark/report/part.ts";

const TITLE = "Figure 3: consensus gain shift from general";
export const SHIFT_AXES = ["strategy", "emotion", "culture"] as const;

export function buildFigure3(input: ReportInput): ReportFigure {
  const subjects = mainSubjects(input);
  const mediators = input.mediators.map((m) => m.name);
  const rows: ChartRow[] = [];
  for (const mediator of mediators) {
    const own = subjects.filter((s) => s.mediator === mediator);
    const general = cgCell(
      input,
      own.filter((s) => s.axis === "general"),
    );
    for (const axis of SHIFT_AXES) {
      const variants = [...new Set(own.filter((s) => s.axis === axis).map((s) => s.variant))];
      for (const variant of variants) {
        const cell = cgCell(
          input,
          own.filter((s) => s.axis === axis && s.variant === variant),
        );
        if (cell.mean === null || general.mean === null) continue;
        rows.push({
          axis,
          variant,
          mediator,
          shift: x100(cell.mean - general.mean),
          cg: x100(cell.mean),
          general: x100(general.mean),
          n: cell.n,
          n_general: general.n,
        });
      }
    }
  }
  const variantOrder = [...new Set(rows.map((r) => String(r.variant)))];
  return {
    id: "figure3",
    title: TITLE,
    caption:
      "For each strategy, emotion and culture variant: the mediator's mean consensus gain on the variant minus its mean on the general condition (negative = the perturbation hurts).",
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

export const figure3: FigurePart = {
  id: "figure3",
  kind: "figure",
  section: "paper",
  order: 30,
  title: TITLE,
  build: buildFigure3,
};

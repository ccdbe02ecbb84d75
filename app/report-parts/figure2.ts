/** Figure 2: the axis profile, consensus gain of each mediator on the general condition and on each axis. */
import { facetedBars } from "../domain/benchmark/charts/faceted-bars.ts";
import type { ReportFigure } from "../domain/benchmark/report-model.ts";
import { axesOf, axisRows, CG_TITLE } from "../domain/benchmark/report/figures.ts";
import { mainSubjects, type ReportInput } from "../domain/benchmark/report/input.ts";
import type { FigurePart } from "../domain/benchmark/report/part.ts";

const TITLE = "Figure 2: axis profile";

export function buildFigure2(input: ReportInput): ReportFigure {
  const subjects = mainSubjects(input);
  const mediators = input.mediators.map((m) => m.name);
  const axes = axesOf(subjects);
  const rows = axisRows(input, subjects, mediators);
  return {
    id: "figure2",
    title: TITLE,
    caption:
      "Consensus gain of each mediator on the general condition and on each socio-cognitive axis (all variants of the axis pooled), with the 95% scenario-bootstrap CI.",
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

export const figure2: FigurePart = {
  id: "figure2",
  kind: "figure",
  section: "paper",
  order: 20,
  title: TITLE,
  build: buildFigure2,
};

/** Figure 6: the simulator swap, consensus gain per axis with the disputants played by each simulator backbone. */
import { facetedBars } from "../domain/benchmark/charts/faceted-bars.ts";
import type { ReportFigure } from "../domain/benchmark/report-model.ts";
import { axesOf, axisRows, CG_TITLE } from "../domain/benchmark/report/figures.ts";
import { mainSubjects, type ReportInput } from "../domain/benchmark/report/input.ts";
import type { FigurePart } from "../domain/benchmark/report/part.ts";

const TITLE = "Figure 6: simulator swap";

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
    title: TITLE,
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

export const figure6: FigurePart = {
  id: "figure6",
  kind: "figure",
  section: "paper",
  order: 60,
  title: TITLE,
  build: buildFigure6,
  omitted: () => "Figure 6 omitted: the plan has no simulator ablation (ablations.simulators).",
};

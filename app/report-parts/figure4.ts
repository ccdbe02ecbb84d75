/**
 * Figure 4: the IE timing profile. Every intervention of a mediator's runs in a condition group
 * (general, or one axis) goes into the bin of its progress p = m/T (timingProfile), and each
 * bin shows the mean lift. Read each panel on its own: IE's range differs between conditions.
 */
import { CONDITION_AXES } from "../domain/bundle.ts";
import { timingProfile } from "../domain/metrics/timing-profile.ts";
import { timingLines } from "../domain/benchmark/charts/timing-lines.ts";
import type { ChartRow } from "../domain/benchmark/charts/style.ts";
import type { ReportFigure } from "../domain/benchmark/report-model.ts";
import { mainSubjects, type ReportInput } from "../domain/benchmark/report/input.ts";
import type { FigurePart } from "../domain/benchmark/report/part.ts";

const TITLE = "Figure 4: intervention-effectiveness timing profile";

const binLabel = (lower: number, upper: number) => `${Math.round(lower * 100)}–${Math.round(upper * 100)}%`;

export function buildFigure4(input: ReportInput): ReportFigure {
  const evaluator = input.evaluators[0];
  const subjects = mainSubjects(input);
  const groups = CONDITION_AXES.filter((a) => subjects.some((s) => s.axis === a));
  const mediators = input.mediators.map((m) => m.name);
  const rows: ChartRow[] = [];
  let bins: string[] = [];
  for (const group of groups) {
    for (const mediator of mediators) {
      const own = subjects.filter((s) => s.axis === group && s.mediator === mediator);
      const interventions = own.flatMap((s) => s.judged[evaluator]?.interventions ?? []);
      const profile = timingProfile(interventions, input.bins);
      bins = profile.bins.map((b) => binLabel(b.lower, b.upper));
      for (const b of profile.bins) {
        rows.push({
          group,
          mediator,
          bin: binLabel(b.lower, b.upper),
          bin_index: b.index,
          ie: b.meanIe === null ? null : Math.round(b.meanIe * 1e4) / 100,
          count: b.count,
          runs: own.length,
        });
      }
    }
  }
  return {
    id: "figure4",
    title: TITLE,
    caption: `Mean IE of the interventions made in each of ${input.bins} equal bins of conversation progress p = m/T, per mediator, for the general condition and each axis; under the evaluator ${evaluator}.`,
    spec: timingLines({ title: "Intervention effectiveness by conversation progress", rows, groups, bins, mediators }),
  };
}

export const figure4: FigurePart = {
  id: "figure4",
  kind: "figure",
  section: "paper",
  order: 40,
  title: TITLE,
  build: buildFigure4,
};

/** Emotional repair of each mediator on the emotion-axis conditions (CC, CR, RR), with the CI. */
import { facetedBars } from "../domain/benchmark/charts/faceted-bars.ts";
import type { ChartRow } from "../domain/benchmark/charts/style.ts";
import type { ReportFigure } from "../domain/benchmark/report-model.ts";
import { buildCell } from "../domain/benchmark/report/cells.ts";
import {
  EMOTION_AXIS,
  EMOTION_VARIANTS,
  hasEmotion,
  NO_EMOTION_WARNING,
  samples,
} from "../domain/benchmark/report/emotion.ts";
import { cellFields } from "../domain/benchmark/report/figures.ts";
import { mainSubjects, type ReportInput } from "../domain/benchmark/report/input.ts";
import type { FigurePart } from "../domain/benchmark/report/part.ts";

const TITLE = "Emotional repair on the emotion axis";

/** ER per mediator on the emotion axis's variants; null when the grid has no emotion-axis run with emotion. */
export function buildEmotionRepairFigure(input: ReportInput): ReportFigure | null {
  const subjects = mainSubjects(input).filter((s) => s.axis === EMOTION_AXIS && s.emotion !== null);
  if (subjects.length === 0) return null;
  const mediators = input.mediators.map((m) => m.name);
  const variants = EMOTION_VARIANTS.filter((v) => subjects.some((s) => s.variant === v));
  const rows: ChartRow[] = mediators.flatMap((mediator) =>
    variants.flatMap((variant) => {
      const cell = buildCell(
        samples(
          subjects.filter((s) => s.mediator === mediator && s.variant === variant),
          "ER",
        ),
        input.bootstrap,
      );
      if (cell.n === 0) return [];
      return [{ mediator, variant, ...cellFields("er", cell) }];
    }),
  );
  return {
    id: "emotion-repair-figure",
    title: TITLE,
    caption:
      "Mean emotional repair of each mediator on the emotion-axis conditions (CC: both parties calm, CR: one reactive, RR: both reactive), with the 95% scenario-bootstrap CI.",
    spec: facetedBars({
      title: "Emotional repair on the emotion axis",
      rows,
      facet: { field: "mediator", title: "mediator", columns: 4, order: mediators },
      x: { field: "variant", title: "emotion condition", order: variants },
      y: { field: "er", title: "emotional repair ×100" },
      color: { field: "variant", title: "condition", order: variants },
      ci: { low: "ci_low", high: "ci_high" },
    }),
  };
}

export const emotionRepairFigure: FigurePart = {
  id: "emotion-repair-figure",
  kind: "figure",
  section: "emotion",
  order: 10,
  title: TITLE,
  build: (input) => (hasEmotion(input) ? buildEmotionRepairFigure(input) : null),
  omitted: (input) =>
    hasEmotion(input)
      ? "Emotional-repair figure omitted: no emotion-axis (CC/CR/RR) run of the main grid has an emotion trajectory."
      : NO_EMOTION_WARNING,
};

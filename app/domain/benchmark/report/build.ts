/** Every table and figure of the report from its input, with a warning for each one the plan cannot give. */
import type { ReportFigure, ReportTable } from "../report-model.ts";
import { buildFigure2, buildFigure3, buildFigure6 } from "./figures.ts";
import { buildEmotionParts, EMOTION_FIGURE_ID, EMOTION_TABLE_IDS } from "./emotion.ts";
import { buildFigure4 } from "./figure4.ts";
import type { ReportInput } from "./input.ts";
import { buildTable3 } from "./table3.ts";
import { buildTable5 } from "./table5.ts";
import { buildTable7 } from "./table7.ts";
import { buildTable8 } from "./table8.ts";
import { buildTable9 } from "./table9.ts";

export const TABLE_IDS = ["table3", "table5", "table7", "table8", "table9", ...EMOTION_TABLE_IDS] as const;
export const FIGURE_IDS = ["figure2", "figure3", "figure4", "figure6", EMOTION_FIGURE_ID] as const;

export function buildReportParts(input: ReportInput): { tables: ReportTable[]; figures: ReportFigure[]; warnings: string[] } {
  const warnings: string[] = [];
  const table8 = buildTable8(input);
  if (!table8) warnings.push("Table 8 omitted: the plan has no evaluator ablation (ablations.evaluators).");
  const table9 = buildTable9(input);
  if (!table9) warnings.push("Table 9 omitted: the plan has no repeated runs (ablations.repeats).");
  const figure6 = buildFigure6(input);
  if (!figure6) warnings.push("Figure 6 omitted: the plan has no simulator ablation (ablations.simulators).");
  const emotion = buildEmotionParts(input);
  warnings.push(...emotion.warnings);
  const tables = [buildTable3(input), buildTable5(input), buildTable7(input), table8, table9, ...emotion.tables].filter((t): t is ReportTable => t !== null);
  const figures = [buildFigure2(input), buildFigure3(input), buildFigure4(input), figure6, ...emotion.figures].filter((f): f is ReportFigure => f !== null);
  return { tables, figures, warnings };
}

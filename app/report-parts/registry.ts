/**
 * Every table and figure of the benchmark report, one file each in this folder. The report
 * builder (every output) and the Benchmark page take them from here in report order (section,
 * tables before figures, then order: app/domain/benchmark/report/part.ts); the list's own order
 * does not matter. Adding a table or figure: its file (id, section, order, title, build) and a line here.
 */
import type { ReportPart } from "../domain/benchmark/report/part.ts";
import { emotionRepair } from "./emotion-repair.ts";
import { emotionRepairFigure } from "./emotion-repair-figure.ts";
import { emotionSummary } from "./emotion-summary.ts";
import { figure2 } from "./figure2.ts";
import { figure3 } from "./figure3.ts";
import { figure4 } from "./figure4.ts";
import { figure6 } from "./figure6.ts";
import { humanCalibrated } from "./human-calibrated.ts";
import { promediateDefinitions } from "./promediate-definitions.ts";
import { table1 } from "./table1.ts";
import { table1proxy } from "./table1proxy.ts";
import { table2 } from "./table2.ts";
import { table3 } from "./table3.ts";
import { table5 } from "./table5.ts";
import { table6 } from "./table6.ts";
import { table7 } from "./table7.ts";
import { table8 } from "./table8.ts";
import { table9 } from "./table9.ts";

export const REPORT_PARTS: readonly ReportPart[] = [
  table1,
  table1proxy,
  table2,
  table3,
  humanCalibrated,
  table5,
  table6,
  table7,
  table8,
  table9,
  figure2,
  figure3,
  figure4,
  figure6,
  emotionRepair,
  emotionSummary,
  emotionRepairFigure,
  promediateDefinitions,
];

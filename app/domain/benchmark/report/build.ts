/**
 * Every table and figure of the report from its input: each registered part (app/report-parts/
 * registry.ts) in report order, with a warning for each one the plan cannot give. Parts sharing a
 * reason (the emotion tables and figure) give it once.
 */
import type { ReportFigure, ReportTable } from "../report-model.ts";
import { inReportOrder, type ReportPart, type ReportPartInput } from "./part.ts";

export interface BuiltParts {
  tables: ReportTable[];
  figures: ReportFigure[];
  warnings: string[];
}

export function buildReportParts(input: ReportPartInput, parts: readonly ReportPart[]): BuiltParts {
  const out: BuiltParts = { tables: [], figures: [], warnings: [] };
  const ids = new Set<string>();
  for (const part of inReportOrder(parts)) {
    // Ids name files and page anchors: two parts with one id would overwrite each other.
    if (ids.has(part.id)) throw new Error(`Two report parts have the id "${part.id}"`);
    ids.add(part.id);
    const built = part.kind === "table" ? part.build(input) : part.build(input);
    if (built === null) {
      const warning = part.omitted?.(input);
      if (warning && !out.warnings.includes(warning)) out.warnings.push(warning);
      continue;
    }
    if (built.id !== part.id || built.title !== part.title) {
      throw new Error(`Report part ${part.id} ("${part.title}") built ${built.id} ("${built.title}")`);
    }
    if (part.kind === "table") out.tables.push(built as ReportTable);
    else out.figures.push(built as ReportFigure);
  }
  return out;
}

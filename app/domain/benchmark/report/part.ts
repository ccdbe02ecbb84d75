/**
 * A report part: one table or figure of the benchmark report, declared in its own file under
 * app/report-parts/ and listed once in app/report-parts/registry.ts. The report builder (build.ts),
 * so every output (md, csv, svg, html, manifest.json), and the Benchmark page take the registered
 * parts in one order: section by section, a section's tables before its figures, then by `order`.
 */
import type { ReportFigure, ReportTable } from "../report-model.ts";
import type { ReportInput } from "./input.ts";
import type { StudyExpectations, StudyResults } from "./studies.ts";
import type { CalibratedEstimates } from "../../estimation/calibrated.ts";

/** The paper's numbered tables and figures, then the emotion read-out (docs/metrics-emotion.md). */
export const REPORT_SECTIONS = ["paper", "emotion"] as const;
export type ReportSection = (typeof REPORT_SECTIONS)[number];

/** What the study tables (1, its proxy, 2, 6) read: the named studies' results and what the plan expects of them. */
export interface StudyInput {
  results: StudyResults;
  expected: StudyExpectations;
  /** The human-calibrated estimates from the named expert consensus studies; absent when none is named. */
  calibrated?: CalibratedEstimates;
}

export interface ReportPartInput extends ReportInput {
  /** Absent when the report reads no study (`studies: false`): the study tables are then left out. */
  studies?: StudyInput;
}

interface PartBase {
  /** The table's or figure's id: its csv/svg file name, its anchor on the page; its file: app/report-parts/<id>.ts. */
  id: string;
  section: ReportSection;
  /** Place within its section and kind (the paper's number ×10 for the numbered ones). */
  order: number;
  /** The title the built table or figure carries. */
  title: string;
  /** Why the part is missing when `build` gives null (a report warning); none when its absence is said elsewhere. */
  omitted?: (input: ReportPartInput) => string;
  /** Built from the validation studies (input.studies): a report that reads no study has none of these. */
  readsStudies?: boolean;
}

export interface TablePart extends PartBase {
  kind: "table";
  build: (input: ReportPartInput) => ReportTable | null;
  /** On the Benchmark page: shade mean cells within their column group, and link them to their runs' list. */
  heat?: boolean;
}

export interface FigurePart extends PartBase {
  kind: "figure";
  build: (input: ReportPartInput) => ReportFigure | null;
}

export type ReportPart = TablePart | FigurePart;

const KINDS: ReportPart["kind"][] = ["table", "figure"];

/** The parts in report order: by section, tables before figures, then by order (stable for equal orders). */
export function inReportOrder<P extends Pick<ReportPart, "section" | "kind" | "order">>(parts: readonly P[]): P[] {
  const rank = (p: P) => [REPORT_SECTIONS.indexOf(p.section), KINDS.indexOf(p.kind), p.order];
  return [...parts].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
}

/**
 * Tables 1, 2 and 6 from the validation studies, when the database holds some: persona fidelity
 * per simulator backbone (A/B reactiveness studies), and each evaluator's alignment with the
 * expert mean at trajectory and outcome level (expert consensus studies) — Table 2 for the
 * plan's evaluator (with the per-turn baseline and the crowd), Table 6 for every other backbone.
 * The numbers are the study dashboards' own; this only lays them out.
 */
import type { BackboneFidelity } from "../../metrics/persona-fidelity.ts";
import type { PearsonResult } from "../../stats/correlation.ts";
import type { ReportRow, ReportTable } from "../report-model.ts";
import { text, withP } from "./rows.ts";

/** Each study's fidelity rows and alignment correlations, in the dashboards' own types. */
export type FidelityRow = BackboneFidelity;
export type Correlation = Pick<PearsonResult, "n" | "r" | "p">;

export interface AlignmentLine {
  method: "evaluator" | "baseline" | "crowd";
  label: string;
  backbone?: string;
  trajectory: Correlation;
  outcome: Correlation;
}

export interface StudyResults {
  fidelity: { study: string; rows: FidelityRow[] }[];
  /** s0: the starting score the dashboard read the evaluators' series with, when it says. */
  alignment: { study: string; s0?: number; rows: AlignmentLine[] }[];
}

export function buildTable1(results: StudyResults): ReportTable | null {
  if (results.fidelity.length === 0) return null;
  const rows: ReportRow[] = results.fidelity.flatMap(({ study, rows: list }) =>
    list.map((f) => ({
      key: `${study}|${f.backbone}`,
      label: f.backbone,
      group: study,
      cells: {
        fidelity: text(f.fidelity, `${(f.fidelity * 100).toFixed(1)}%`),
        correct: text(f.correct, `${f.correct} of ${f.pairs}`),
        noMajority: text(f.noMajority, String(f.noMajority)),
        labels: text(f.labels, String(f.labels)),
      },
    })),
  );
  return {
    id: "table1",
    title: "Table 1: persona fidelity per simulator backbone",
    caption: "Share of A/B reactiveness pairs whose annotators' majority names the more reactive disputant, per simulator backbone, from each A/B study.",
    scale: "raw",
    rowLabel: "Simulator",
    columns: [
      { key: "fidelity", label: "fidelity" },
      { key: "correct", label: "correct pairs" },
      { key: "noMajority", label: "no majority" },
      { key: "labels", label: "labels" },
    ],
    rows,
    notes: ["A pair without a strict majority counts as not correct. Studies' own dashboards show the agreement behind these."],
  };
}

function alignmentRows(results: StudyResults, keep: (line: AlignmentLine) => boolean): ReportRow[] {
  return results.alignment.flatMap(({ study, rows }) =>
    rows.filter(keep).map((line) => ({
      key: `${study}|${line.method}|${line.backbone ?? ""}`,
      label: line.label,
      group: study,
      cells: {
        trajectory: text(line.trajectory.r, withP(line.trajectory.r, line.trajectory.p)),
        trajectoryN: text(line.trajectory.n, String(line.trajectory.n)),
        outcome: text(line.outcome.r, withP(line.outcome.r, line.outcome.p)),
        outcomeN: text(line.outcome.n, String(line.outcome.n)),
      },
    })),
  );
}

function alignmentTable(id: string, title: string, caption: string, rows: ReportRow[], s0: string): ReportTable {
  return {
    id,
    title,
    caption,
    scale: "raw",
    rowLabel: "Method",
    columns: [
      { key: "trajectory", label: "Pearson r (p)", group: "trajectory" },
      { key: "trajectoryN", label: "units", group: "trajectory" },
      { key: "outcome", label: "Pearson r (p)", group: "outcome" },
      { key: "outcomeN", label: "units", group: "outcome" },
    ],
    rows,
    notes: [
      "Trajectory level: every (snippet, topic) unit; outcome level: the final snippet of each trajectory. Against the mean expert score.",
      `Computed as each study's dashboard computes it; the evaluators' series start every topic at s0 = ${s0}.`,
    ],
  };
}

/** Table 2 (the plan's evaluator, the baseline, the crowd) and Table 6 (every other evaluator backbone). */
export function buildAlignmentTables(results: StudyResults, evaluator: string): ReportTable[] {
  if (results.alignment.length === 0) return [];
  const s0 = [...new Set(results.alignment.map((a) => (a.s0 === undefined ? "the dashboard's default" : String(a.s0))))].join(" / ");
  const main = alignmentRows(results, (l) => l.method !== "evaluator" || l.backbone === evaluator);
  const others = alignmentRows(results, (l) => l.method === "evaluator" && l.backbone !== evaluator);
  const tables = [
    alignmentTable("table2", "Table 2: evaluator alignment with experts", `Pearson correlation of ${evaluator}'s consensus score, the per-turn baseline's and the crowd's with the expert mean, per expert consensus study.`, main, s0),
  ];
  if (others.length > 0) {
    tables.push(alignmentTable("table6", "Table 6: alignment of the other evaluator backbones", "The same alignment for every other evaluator backbone that judged the study's trajectories.", others, s0));
  }
  return tables;
}

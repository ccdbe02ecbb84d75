/**
 * Tables 1, 2 and 6 from the validation studies, when the database holds some: persona fidelity
 * per simulator backbone (A/B reactiveness studies), and each evaluator's alignment with the
 * expert mean at trajectory and outcome level (expert consensus studies) — Table 2 for the
 * plan's evaluator (with the per-turn baseline and the crowd), Table 6 for every other backbone.
 * The numbers are the study dashboards' own; this only lays them out. Beside Table 1, its
 * automatic proxy (app/domain/emotion/fidelity-proxy.ts): the generated A/B pairs' measured
 * emotional volatility against their assigned reactiveness, with no annotator.
 */
import type { BackboneProxy } from "../../emotion/fidelity-proxy.ts";
import type { BackboneFidelity } from "../../metrics/persona-fidelity.ts";
import type { PearsonResult } from "../../stats/correlation.ts";
import type { ReportRow, ReportTable } from "../report-model.ts";
import { pct, text, withP } from "./rows.ts";

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
  /** The automatic fidelity proxy per simulator backbone over the database's A/B pairs (empty without pairs). */
  proxy: BackboneProxy[];
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

/**
 * "Table 1 (automatic)": per simulator backbone, the pairs whose target party has a measured
 * volatility on both sides, the share of them whose more reactive side is the more volatile,
 * and Pearson r of level against volatility. Null when no pair has a measured side.
 */
export function buildTable1Proxy(results: StudyResults): ReportTable | null {
  if (!results.proxy.some((b) => b.observations > 0)) return null;
  const rows: ReportRow[] = results.proxy.map((b) => ({
    key: b.backbone,
    label: b.backbone,
    cells: {
      measured: text(b.measuredPairs, `${b.measuredPairs} of ${b.pairs}`),
      agreement: text(b.agreement, b.agreement === null ? "–" : `${pct(b.agreement)}%`),
      ties: text(b.ties, String(b.ties)),
      r: text(b.r, withP(b.r, b.p)),
      observations: text(b.observations, String(b.observations)),
    },
  }));
  const alone = results.fidelity.length === 0;
  return {
    id: "table1proxy",
    title: "Table 1 (automatic): persona fidelity measured from emotional volatility",
    caption: "Per simulator backbone, over the stored A/B reactiveness pairs: does the target party's measured emotional volatility follow its assigned reactiveness level? A free, automatic counterpart of the crowd's Table 1.",
    scale: "raw",
    rowLabel: "Simulator",
    columns: [
      { key: "measured", label: "measured pairs" },
      { key: "agreement", label: "agreement" },
      { key: "ties", label: "ties" },
      { key: "r", label: "Pearson r (p)" },
      { key: "observations", label: "observations" },
    ],
    rows,
    notes: [
      "Measured pair: the target party has a volatility (mean absolute turn-to-turn change of its emotion, ≥ 2 reports) in both runs, read from each run's preferred trajectory (self-report, else the plan's emotion judge, else the first judge).",
      "Agreement: share of measured pairs whose more reactive side is strictly more volatile (a tie counts as not ordered). r: level against volatility over the distinct (run, target party) observations.",
      alone
        ? "No A/B study has crowd labels yet, so this proxy stands alone: it checks that the simulator acts out reactiveness, not that people perceive it."
        : "Read beside Table 1: the crowd's fidelity says whether people perceive the reactiveness this measures.",
    ],
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

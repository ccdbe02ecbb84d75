/**
 * What the study tables share (app/report-parts/table1, table1proxy, table2, table6): Tables 1, 2
 * and 6 from the validation studies the plan names (or `report --study`): persona
 * fidelity per simulator backbone (A/B reactiveness studies), and each evaluator's alignment with
 * the expert mean at trajectory and outcome level (expert consensus studies) — Table 2 for the
 * plan's evaluator (with the per-turn baseline and the crowd), Table 6 for the plan's ablation
 * evaluators. A row the plan expects but a study cannot give is printed as "—" with a note naming
 * what fills it, never left out. The numbers are the study dashboards' own; this only lays them out. Beside Table 1,
 * its automatic proxy (app/domain/emotion/fidelity-proxy.ts): the generated A/B pairs' measured
 * emotional volatility against their assigned reactiveness, with no annotator.
 */
import type { BackboneProxy } from "../../emotion/fidelity-proxy.ts";
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

/** A study the report reads: its id, and the label its rows are grouped under. */
export interface StudyRef {
  studyId: number;
  study: string;
}

export interface StudyResults {
  fidelity: (StudyRef & { rows: FidelityRow[] })[];
  /**
   * s0: the starting score the dashboard read the evaluators' series with, when it says; units: expert-labelled units.
   */
  alignment: (StudyRef & { s0?: number; units: number; rows: AlignmentLine[] })[];
  /** The automatic fidelity proxy per simulator backbone over the database's A/B pairs (empty without pairs). */
  proxy: BackboneProxy[];
}

/** What the plan expects of the studies: a row per simulator in Table 1, per evaluator in Tables 2 and 6. */
export interface StudyExpectations {
  /** The plan's simulator, then its ablation simulators. */
  simulators: string[];
  /** The plan's main evaluator (Table 2). */
  evaluator: string;
  /** The plan's ablation evaluators (Table 6). */
  otherEvaluators: string[];
}

export const DASH = "—";
const dash = () => text(null, DASH);

/** A row that cannot be computed: "—" in every column, and a note saying what fills it. */
export function missingRow(key: string, label: string, group: string, columns: readonly string[]): ReportRow {
  return { key, label, group, cells: Object.fromEntries(columns.map((c) => [c, dash()])) };
}

const ALIGNMENT_COLUMNS = ["trajectory", "trajectoryN", "outcome", "outcomeN"];

/**
 * One wanted line of an alignment table: which method (and backbone), its label, and the command that fills it when
 * absent.
 */
interface WantedLine {
  method: AlignmentLine["method"];
  backbone?: string;
  label: string;
  fill: (studyId: number) => string;
}

export const evaluatorLine = (backbone: string): WantedLine => ({
  method: "evaluator",
  backbone,
  label: `Topic-localized evaluator (${backbone})`,
  fill: (id) =>
    `judge the study's trajectories with it: \`npx socrates validate-evaluator --study ${id} --backbone ${backbone}\``,
});

export const BASELINE_LINE: WantedLine = {
  method: "baseline",
  label: "Per-turn baseline",
  fill: () =>
    "judge the study's runs with the per-turn baseline: `npx socrates evaluate --method per-turn --run <id>` for each (or `--all`; judged runs are skipped)",
};

export const CROWD_LINE: WantedLine = {
  method: "crowd",
  label: "Non-expert pool (crowd mean)",
  fill: (id) =>
    `no crowd study has labels on study ${id}'s snippets: create a crowd snippet-consensus study from the same snippets and collect its labels`,
};

/** A line counts when it has at least one unit with a value. */
const computed = (line: AlignmentLine | undefined): line is AlignmentLine =>
  line !== undefined && line.trajectory.n + line.outcome.n > 0;

export function alignmentRows(results: StudyResults, wanted: readonly WantedLine[], notes: string[]): ReportRow[] {
  return results.alignment.flatMap(({ study, studyId, units, rows }) =>
    wanted.map((w) => {
      const line = rows.find((l) => l.method === w.method && (w.backbone === undefined || l.backbone === w.backbone));
      const key = `${study}|${w.method}|${w.backbone ?? line?.backbone ?? ""}`;
      if (!computed(line)) {
        notes.push(
          `${DASH} ${study}, ${w.label}: ${units === 0 ? "the study has no expert-labelled unit yet; collect expert labels first" : w.fill(studyId)}.`,
        );
        return missingRow(key, w.label, study, ALIGNMENT_COLUMNS);
      }
      return {
        key,
        label: line.label,
        group: study,
        cells: {
          trajectory: text(line.trajectory.r, withP(line.trajectory.r, line.trajectory.p)),
          trajectoryN: text(line.trajectory.n, String(line.trajectory.n)),
          outcome: text(line.outcome.r, withP(line.outcome.r, line.outcome.p)),
          outcomeN: text(line.outcome.n, String(line.outcome.n)),
        },
      };
    }),
  );
}

export function alignmentTable(
  id: string,
  title: string,
  caption: string,
  rows: ReportRow[],
  s0: string,
  missing: string[],
): ReportTable {
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
      ...missing,
    ],
  };
}

/** The s0 the studies' dashboards read the evaluators' series with, as the alignment tables' note prints it. */
export function alignmentS0(results: StudyResults): string {
  const values = results.alignment.map((a) => (a.s0 === undefined ? "the dashboard's default" : String(a.s0)));
  return [...new Set(values)].join(" / ");
}

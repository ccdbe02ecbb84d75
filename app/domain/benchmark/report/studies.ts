/**
 * Tables 1, 2 and 6 from the validation studies the plan names (or `report --study`): persona
 * fidelity per simulator backbone (A/B reactiveness studies), and each evaluator's alignment with
 * the expert mean at trajectory and outcome level (expert consensus studies) — Table 2 for the
 * plan's evaluator (with the per-turn baseline and the crowd), Table 6 for the plan's ablation
 * evaluators. A row the plan expects but a study cannot give is printed as "—" with a note naming
 * what fills it, never left out. The numbers are the study dashboards' own; this only lays them out. Beside Table 1, its
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

/** A study the report reads: its id, and the label its rows are grouped under. */
export interface StudyRef {
  studyId: number;
  study: string;
}

export interface StudyResults {
  fidelity: (StudyRef & { rows: FidelityRow[] })[];
  /** s0: the starting score the dashboard read the evaluators' series with, when it says; units: expert-labelled units. */
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

const DASH = "—";
const dash = () => text(null, DASH);

/** A row that cannot be computed: "—" in every column, and a note saying what fills it. */
function missingRow(key: string, label: string, group: string, columns: readonly string[]): ReportRow {
  return { key, label, group, cells: Object.fromEntries(columns.map((c) => [c, dash()])) };
}

const FIDELITY_COLUMNS = ["fidelity", "correct", "noMajority", "labels"];

function fidelityRows(study: StudyResults["fidelity"][number], simulators: readonly string[], notes: string[]): ReportRow[] {
  const rows: ReportRow[] = study.rows.map((f) => ({
    key: `${study.study}|${f.backbone}`,
    label: f.backbone,
    group: study.study,
    cells: {
      fidelity: text(f.fidelity, `${(f.fidelity * 100).toFixed(1)}%`),
      correct: text(f.correct, `${f.correct} of ${f.pairs}`),
      noMajority: text(f.noMajority, String(f.noMajority)),
      labels: text(f.labels, String(f.labels)),
    },
  }));
  for (const simulator of simulators.filter((m) => !study.rows.some((f) => f.backbone === m))) {
    rows.push(missingRow(`${study.study}|${simulator}`, simulator, study.study, FIDELITY_COLUMNS));
    notes.push(
      study.rows.length === 0
        ? `${DASH} ${study.study}, ${simulator}: the study has no counted labels yet; collect them (its link, or \`npx socrates mturk publish --study ${study.studyId}\`).`
        : `${DASH} ${study.study}, ${simulator}: the study has no labelled A/B pair of this simulator; draw pairs with \`npx socrates fidelity pairs --simulator ${simulator}\`, then label them in an A/B study.`,
    );
  }
  return rows;
}

/** Table 1: one row per simulator backbone of each named A/B study, and a "—" row for each plan simulator it lacks. */
export function buildTable1(results: StudyResults, expected: Pick<StudyExpectations, "simulators">): ReportTable | null {
  if (results.fidelity.length === 0) return null;
  const notes: string[] = [];
  const rows = results.fidelity.flatMap((study) => fidelityRows(study, expected.simulators, notes));
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
    notes: ["A pair without a strict majority counts as not correct. Studies' own dashboards show the agreement behind these.", ...notes],
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
  const alone = !results.fidelity.some((f) => f.rows.length > 0);
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

const ALIGNMENT_COLUMNS = ["trajectory", "trajectoryN", "outcome", "outcomeN"];

/** One wanted line of an alignment table: which method (and backbone), its label, and the command that fills it when absent. */
interface WantedLine {
  method: AlignmentLine["method"];
  backbone?: string;
  label: string;
  fill: (studyId: number) => string;
}

const evaluatorLine = (backbone: string): WantedLine => ({
  method: "evaluator",
  backbone,
  label: `Topic-localized evaluator (${backbone})`,
  fill: (id) => `judge the study's trajectories with it: \`npx socrates validate-evaluator --study ${id} --backbone ${backbone}\``,
});

const BASELINE_LINE: WantedLine = {
  method: "baseline",
  label: "Per-turn baseline",
  fill: () => "judge the study's runs with the per-turn baseline: `npx socrates evaluate --method per-turn --run <id>` for each (or `--all`; judged runs are skipped)",
};

const CROWD_LINE: WantedLine = {
  method: "crowd",
  label: "Non-expert pool (crowd mean)",
  fill: (id) => `no crowd study has labels on study ${id}'s snippets: create a crowd snippet-consensus study from the same snippets and collect its labels`,
};

/** A line counts when it has at least one unit with a value. */
const computed = (line: AlignmentLine | undefined): line is AlignmentLine => line !== undefined && line.trajectory.n + line.outcome.n > 0;

function alignmentRows(results: StudyResults, wanted: readonly WantedLine[], notes: string[]): ReportRow[] {
  return results.alignment.flatMap(({ study, studyId, units, rows }) =>
    wanted.map((w) => {
      const line = rows.find((l) => l.method === w.method && (w.backbone === undefined || l.backbone === w.backbone));
      const key = `${study}|${w.method}|${w.backbone ?? line?.backbone ?? ""}`;
      if (!computed(line)) {
        notes.push(`${DASH} ${study}, ${w.label}: ${units === 0 ? "the study has no expert-labelled unit yet; collect expert labels first" : w.fill(studyId)}.`);
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

function alignmentTable(id: string, title: string, caption: string, rows: ReportRow[], s0: string, missing: string[]): ReportTable {
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

/**
 * Table 2 (the plan's evaluator, the baseline, the crowd) and Table 6 (the plan's ablation
 * evaluators), per named expert study. A backbone that judged the study but is not the plan's is
 * in neither: these tables describe the plan's judges.
 */
export function buildAlignmentTables(results: StudyResults, expected: Pick<StudyExpectations, "evaluator" | "otherEvaluators">): ReportTable[] {
  if (results.alignment.length === 0) return [];
  const s0 = [...new Set(results.alignment.map((a) => (a.s0 === undefined ? "the dashboard's default" : String(a.s0))))].join(" / ");
  const mainNotes: string[] = [];
  const main = alignmentRows(results, [evaluatorLine(expected.evaluator), BASELINE_LINE, CROWD_LINE], mainNotes);
  const tables = [
    alignmentTable("table2", "Table 2: evaluator alignment with experts", `Pearson correlation of ${expected.evaluator}'s consensus score, the per-turn baseline's and the crowd's with the expert mean, per expert consensus study.`, main, s0, mainNotes),
  ];
  const others = expected.otherEvaluators.filter((b) => b !== expected.evaluator);
  if (others.length > 0) {
    const notes: string[] = [];
    const rows = alignmentRows(results, others.map(evaluatorLine), notes);
    tables.push(alignmentTable("table6", "Table 6: alignment of the plan's other evaluator backbones", "The same alignment for each evaluator backbone of the plan's evaluator ablation, per expert consensus study.", rows, s0, notes));
  }
  return tables;
}

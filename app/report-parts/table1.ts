/**
 * Table 1: persona fidelity per simulator backbone, one row per backbone of each named A/B
 * reactiveness study, and a "—" row with the command that fills it for each plan simulator it lacks.
 */
import type { ReportRow, ReportTable } from "../domain/benchmark/report-model.ts";
import type { TablePart } from "../domain/benchmark/report/part.ts";
import { text } from "../domain/benchmark/report/rows.ts";
import { DASH, missingRow, type StudyExpectations, type StudyResults } from "../domain/benchmark/report/studies.ts";

const TITLE = "Table 1: persona fidelity per simulator backbone";

const FIDELITY_COLUMNS = ["fidelity", "correct", "noMajority", "labels"];

function fidelityRows(
  study: StudyResults["fidelity"][number],
  simulators: readonly string[],
  notes: string[],
): ReportRow[] {
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

export function buildTable1(
  results: StudyResults,
  expected: Pick<StudyExpectations, "simulators">,
): ReportTable | null {
  if (results.fidelity.length === 0) return null;
  const notes: string[] = [];
  const rows = results.fidelity.flatMap((study) => fidelityRows(study, expected.simulators, notes));
  return {
    id: "table1",
    title: TITLE,
    caption:
      "Share of A/B reactiveness pairs whose annotators' majority names the more reactive disputant, per simulator backbone, from each A/B study.",
    scale: "raw",
    rowLabel: "Simulator",
    columns: [
      { key: "fidelity", label: "fidelity" },
      { key: "correct", label: "correct pairs" },
      { key: "noMajority", label: "no majority" },
      { key: "labels", label: "labels" },
    ],
    rows,
    notes: [
      "A pair without a strict majority counts as not correct. Studies' own dashboards show the agreement behind these.",
      ...notes,
    ],
  };
}

export const table1: TablePart = {
  id: "table1",
  kind: "table",
  section: "paper",
  order: 10,
  title: TITLE,
  readsStudies: true,
  // Without studies, or without an A/B study, the report's study scope says why in its warnings.
  build: (input) => (input.studies ? buildTable1(input.studies.results, input.studies.expected) : null),
};

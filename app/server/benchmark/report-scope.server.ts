/**
 * Which studies a report's Tables 1, 2 and 6 read: `report --study ID…` when given, else the
 * plan's `studies`; none named, none read (a warning says how, when the database has studies). Reads
 * what those tables (and Table 1's automatic proxy: app/report-parts/table1*.ts, table2, table6) are built from.
 */
import type { LoadedPlan } from "./plan-file.server.ts";
import type { StudyInput } from "../../domain/benchmark/report/part.ts";
import type { Db } from "../db.server.ts";
import { loadStudyResults, type StudyScope } from "./report-studies.server.ts";
import { listStudyRows } from "../models/study.server.ts";
import { AB_REACTIVENESS } from "../../task-types/ab-reactiveness/label.ts";
import { CONSENSUS_SNIPPET } from "../../task-types/consensus-snippet/label.ts";
import { calibratedEstimates } from "../estimation/calibrated.server.ts";

export interface StudyTables {
  /** The study ids the tables read, in the order named (empty: none named). */
  ids: number[];
  /** What the study tables read; absent when the report reads no study (`studies: false`). */
  input?: StudyInput;
  warnings: string[];
}

/** The named studies and where each name came from. */
export function studyScopeOf(loaded: LoadedPlan, override?: readonly number[], overrideSource = "--study"): StudyScope {
  if (override !== undefined)
    return { ids: override, where: (i) => (overrideSource === "--study" ? overrideSource : `${overrideSource}[${i}]`) };
  return { ids: loaded.plan.studies ?? [], where: (i) => `${loaded.source}: studies[${i}]` };
}

/** Studies the plan could name: A/B reactiveness and expert consensus studies. */
async function nameableStudies(db: Db): Promise<number[]> {
  return (await listStudyRows(db))
    .filter((s) => s.type === AB_REACTIVENESS || (s.type === CONSENSUS_SNIPPET && s.pool === "expert"))
    .map((s) => s.id);
}

const noneNamed = (ids: number[]) =>
  `Tables 1, 2 and 6 omitted: the plan names no validation study (the database has ${ids.length === 1 ? "study" : "studies"} ${ids.join(", ")}). Add \`"studies": [<id>, …]\` to the plan or pass \`--study <id>…\`.`;

export async function studyTablesOf(
  db: Db,
  loaded: LoadedPlan,
  options: { studies?: boolean; studyIds?: readonly number[]; studyIdsSource?: string },
): Promise<StudyTables> {
  const scope = studyScopeOf(loaded, options.studyIds, options.studyIdsSource);
  const ids = [...new Set(scope.ids)];
  if (options.studies === false) return { ids, warnings: [] };
  const { plan } = loaded;
  const results = await loadStudyResults(db, scope, plan.emotion?.judge?.model);
  const expected = {
    simulators: [plan.simulator.model, ...plan.ablations.simulators.map((s) => s.model)],
    evaluator: plan.evaluator.model,
    otherEvaluators: plan.ablations.evaluators.map((e) => e.model),
  };
  const warnings: string[] = [];
  if (ids.length === 0) {
    // With no study in the database there is nothing to name: no warning.
    const nameable = await nameableStudies(db);
    if (nameable.length > 0) warnings.push(noneNamed(nameable));
  } else {
    if (results.fidelity.length === 0)
      warnings.push(`Table 1 omitted: none of the named studies (${ids.join(", ")}) is an A/B reactiveness study.`);
    if (results.alignment.length === 0)
      warnings.push(
        `Tables 2 and 6 omitted: none of the named studies (${ids.join(", ")}) is an expert snippet-consensus study.`,
      );
  }
  // The human-calibrated scores read the named expert consensus studies (already checked above).
  const expertIds = results.alignment.map((a) => a.studyId);
  const calibrated = expertIds.length > 0 ? await calibratedEstimates(db, { loaded, studyIds: expertIds }) : undefined;
  return { ids, input: { results, expected, ...(calibrated ? { calibrated } : {}) }, warnings };
}

/**
 * The validation studies' results for Tables 1, 2 and 6, read through each study's dashboard
 * (read-only): fidelity from A/B reactiveness studies, alignment from expert consensus studies.
 */
import type { StudyResults } from "../../domain/benchmark/report/studies.ts";
import { studyDashboard } from "../annotation/dashboard.server.ts";
import { listStudies } from "../annotation/studies.server.ts";
import type { Db } from "../db.server.ts";

export function loadStudyResults(db: Db): StudyResults {
  const results: StudyResults = { fidelity: [], alignment: [] };
  for (const study of listStudies(db)) {
    if (study.items === 0) continue;
    const dashboard = studyDashboard(db, study.id);
    const name = `${study.name} (study ${study.id})`;
    if ("ab" in dashboard && dashboard.ab.fidelity.length > 0) results.fidelity.push({ study: name, rows: dashboard.ab.fidelity });
    if ("alignment" in dashboard && dashboard.alignment && dashboard.alignment.rows.length > 0) {
      results.alignment.push({
        study: name,
        ...(dashboard.alignment.s0 !== undefined ? { s0: dashboard.alignment.s0 } : {}),
        rows: dashboard.alignment.rows.map((r) => ({ method: r.method, label: r.label, ...(r.backbone ? { backbone: r.backbone } : {}), trajectory: r.trajectory, outcome: r.outcome })),
      });
    }
  }
  return results;
}

/**
 * The validation studies' results for Tables 1, 2 and 6, read through each study's dashboard
 * (read-only): fidelity from A/B reactiveness studies, alignment from expert consensus studies;
 * and Table 1's automatic proxy from the stored A/B pairs' emotion trajectories.
 */
import type { StudyResults } from "../../domain/benchmark/report/studies.ts";
import type { BackboneProxy } from "../../domain/emotion/fidelity-proxy.ts";
import { studyDashboard } from "../annotation/dashboard.server.ts";
import { listStudies } from "../annotation/studies.server.ts";
import type { Db } from "../db.server.ts";
import { storedFidelityProxy, storedProxyPairs } from "../emotion-trajectories.server.ts";

/**
 * The proxy over every stored A/B pair (backbone = the runs' simulator backbone), the target
 * party's volatility read from each run's preferred trajectory; an incomplete judged trajectory
 * gives no volatility (as the emotion metrics are null on it).
 */
export function loadFidelityProxy(db: Db, judgeBackbone?: string): BackboneProxy[] {
  return storedFidelityProxy(db, storedProxyPairs(db), judgeBackbone);
}

export function loadStudyResults(db: Db, judgeBackbone?: string): StudyResults {
  const results: StudyResults = { fidelity: [], alignment: [], proxy: loadFidelityProxy(db, judgeBackbone) };
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

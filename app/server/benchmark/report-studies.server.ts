/**
 * The validation studies' results for Tables 1, 2 and 6, read through each named study's
 * dashboard (read-only): fidelity from A/B reactiveness studies, alignment from expert consensus
 * studies; and Table 1's automatic proxy from the stored A/B pairs' emotion trajectories. Only the
 * studies the plan names (or `report --study`) are read: a study the plan never named does not
 * enter its report.
 */
import type { StudyResults } from "../../domain/benchmark/report/studies.ts";
import type { BackboneProxy } from "../../domain/emotion/fidelity-proxy.ts";
import { AB_REACTIVENESS } from "../../task-types/ab-reactiveness/label.ts";
import { CONSENSUS_SNIPPET } from "../../task-types/consensus-snippet/label.ts";
import { studyDashboard } from "../annotation/dashboard.server.ts";
import type { Db } from "../db.server.ts";
import { storedFidelityProxy, storedProxyPairs } from "../emotion-trajectories.server.ts";
import { findStudy } from "../models/study.server.ts";

/** A named study that does not exist or cannot give Tables 1, 2 or 6; the message names where it was named. */
export class StudyScopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StudyScopeError";
  }
}

/** The named studies and where each was named (`plan.json: studies[1]`, `--study`), for error messages. */
export interface StudyScope {
  ids: readonly number[];
  where: (index: number) => string;
}

/**
 * The proxy over every stored A/B pair (backbone = the runs' simulator backbone), the target
 * party's volatility read from each run's preferred trajectory; an incomplete judged trajectory
 * gives no volatility (as the emotion metrics are null on it).
 */
export async function loadFidelityProxy(db: Db, judgeBackbone?: string): Promise<BackboneProxy[]> {
  return await storedFidelityProxy(db, await storedProxyPairs(db), judgeBackbone);
}

/** Each named study, checked: it exists, and is an A/B study or an expert consensus study. */
async function checkedStudies(db: Db, scope: StudyScope) {
  const seen = new Set<number>();
  const studies: NonNullable<Awaited<ReturnType<typeof findStudy>>>[] = [];
  for (const [i, id] of scope.ids.entries()) {
    const study = await findStudy(db, id);
    if (!study) throw new StudyScopeError(`${scope.where(i)}: study ${id} does not exist (see the Studies page)`);
    if (seen.has(id)) continue;
    seen.add(id);
    const usable = study.type === AB_REACTIVENESS || (study.type === CONSENSUS_SNIPPET && study.pool === "expert");
    if (!usable) {
      const hint =
        study.type === CONSENSUS_SNIPPET
          ? "; name the expert study on the same snippets: its Table 2 row brings this crowd study's labels"
          : "";
      throw new StudyScopeError(
        `${scope.where(i)}: study ${id} ("${study.name}") is a ${study.pool} ${study.type} study; Tables 1, 2 and 6 read A/B reactiveness studies and expert snippet-consensus studies${hint}`,
      );
    }
    studies.push(study);
  }
  return studies;
}

export async function loadStudyResults(db: Db, scope: StudyScope, judgeBackbone?: string): Promise<StudyResults> {
  const results: StudyResults = { fidelity: [], alignment: [], proxy: await loadFidelityProxy(db, judgeBackbone) };
  for (const study of await checkedStudies(db, scope)) {
    const dashboard = await studyDashboard(db, study.id);
    const ref = { studyId: study.id, study: `${study.name} (study ${study.id})` };
    if (study.type === AB_REACTIVENESS) {
      results.fidelity.push({ ...ref, rows: "ab" in dashboard ? dashboard.ab.fidelity : [] });
      continue;
    }
    const table = "alignment" in dashboard ? dashboard.alignment : null;
    results.alignment.push({
      ...ref,
      ...(table?.s0 !== undefined ? { s0: table.s0 } : {}),
      units: table?.units.length ?? 0,
      rows: (table?.rows ?? []).map((r) => ({
        method: r.method,
        label: r.label,
        ...(r.backbone ? { backbone: r.backbone } : {}),
        trajectory: r.trajectory,
        outcome: r.outcome,
      })),
    });
  }
  return results;
}

/**
 * The timing profile per mediator × condition (spec: "Timing profile"): every stored IE row's
 * interventions, with their progress p = m / T, binned into equal bins and averaged per bin.
 * Read from metric_values, so it reflects the parameters `socrates metrics` last used.
 */
import { ie } from "../../domain/metrics/benchmark/ie.ts";
import { DEFAULT_TIMING_BINS, timingProfile, type TimingProfileResult } from "../../domain/metrics/timing-profile.ts";
import type { Db } from "../db.server.ts";
import { mediatedRunValues } from "../models/metric-value.server.ts";
import { usableEvaluationIds } from "./evaluation-identity.server.ts";

export interface TimingProfileCell {
  mediator: string;
  /** axis:variant of the runs' condition. */
  condition: string;
  /** The topic-localized judge the consensus series came from. */
  judge: string;
  runs: number;
  profile: TimingProfileResult;
}

interface IeDetail {
  backbone?: string;
  incomplete?: boolean;
  perIntervention?: { progress: number; ie: number }[];
}

export async function timingProfiles(db: Db, bins = DEFAULT_TIMING_BINS): Promise<TimingProfileCell[]> {
  const all = await mediatedRunValues(db, ie.id);
  // Rows of an evaluation a changed judge prompt superseded are not the judge's values now.
  const usable = usableEvaluationIds(all.map((r) => r.evaluation));
  const rows = all.filter((r) => usable.has(r.evaluation.id));
  const cells = new Map<
    string,
    {
      mediator: string;
      condition: string;
      judge: string;
      runs: number;
      interventions: { progress: number; ie: number }[];
    }
  >();
  for (const row of rows) {
    const mediator = row.mediator ?? "";
    const key = `${mediator}\u0000${row.condition}\u0000${row.judge}`;
    const detail = (row.detail ?? {}) as IeDetail;
    if (detail.incomplete) continue; // no C to place its interventions on
    const cell = cells.get(key) ?? { mediator, condition: row.condition, judge: row.judge, runs: 0, interventions: [] };
    cell.runs++;
    for (const i of detail.perIntervention ?? []) cell.interventions.push({ progress: i.progress, ie: i.ie });
    cells.set(key, cell);
  }
  return [...cells.values()].map(({ interventions, ...cell }) => ({
    ...cell,
    profile: timingProfile(interventions, bins),
  }));
}

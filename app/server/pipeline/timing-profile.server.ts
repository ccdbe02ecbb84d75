/**
 * The timing profile per mediator × condition (spec: "Timing profile"): every stored IE row's
 * interventions, with their progress p = m / T, binned into equal bins and averaged per bin.
 * Read from metric_values, so it reflects the parameters `socrates metrics` last used.
 */
import { timingProfile, DEFAULT_TIMING_BINS, type TimingProfileResult } from "../../domain/metrics/index.ts";
import type { Db } from "../db.server.ts";

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
  perIntervention?: { progress: number; ie: number }[];
}

export function timingProfiles(db: Db, bins = DEFAULT_TIMING_BINS): TimingProfileCell[] {
  const rows = db.$client
    .prepare(
      `SELECT m.detail, r.mediator_backbone AS mediator, c.axis || ':' || c.variant AS condition, e.backbone AS judge
       FROM metric_values m
       JOIN runs r ON r.id = m.subject_id
       JOIN conditions c ON c.id = r.condition_id
       JOIN evaluations e ON e.id = m.evaluation_id
       WHERE m.subject_kind = 'run' AND m.metric = 'IE' AND r.mediated = 1
       ORDER BY mediator, condition, judge, r.id`,
    )
    .all() as { detail: string; mediator: string; condition: string; judge: string }[];
  const cells = new Map<string, { mediator: string; condition: string; judge: string; runs: number; interventions: { progress: number; ie: number }[] }>();
  for (const row of rows) {
    const key = `${row.mediator}\u0000${row.condition}\u0000${row.judge}`;
    const cell = cells.get(key) ?? { mediator: row.mediator, condition: row.condition, judge: row.judge, runs: 0, interventions: [] };
    cell.runs++;
    const detail = JSON.parse(row.detail) as IeDetail;
    for (const i of detail.perIntervention ?? []) cell.interventions.push({ progress: i.progress, ie: i.ie });
    cells.set(key, cell);
  }
  return [...cells.values()].map(({ interventions, ...cell }) => ({ ...cell, profile: timingProfile(interventions, bins) }));
}

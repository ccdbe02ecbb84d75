/**
 * Rows for the dashboard's per-channel table: the study's latest labels and gold accuracy as the
 * dashboard reads them, the crowd assignments the channels reported, and each annotator's
 * channel (expert and admin accounts count as "web").
 */
import { channelStats, type Channel, type ChannelStats } from "../../domain/crowd/channel-stats.ts";
import { goldAccuracy, type GoldAccuracy } from "../../domain/validation/index.ts";
import type { Db } from "../db.server.ts";
import { goldFor } from "../annotation/dashboard.server.ts";
import { loadItems, loadLatestLabels } from "../annotation/dashboard-data.server.ts";
import { getStudy } from "../annotation/studies.server.ts";
import { listCrowdAssignments } from "./crowd-assignments.server.ts";

function channelsOf(db: Db, studyId: number): Map<string, Channel> {
  const rows = db.$client
    .prepare(
      `SELECT a.id, a.channel FROM annotators a
       WHERE a.id IN (SELECT l.annotator_id FROM labels l JOIN study_items i ON i.id = l.study_item_id WHERE i.study_id = ?)
          OR a.id IN (SELECT c.annotator_id FROM crowd_assignments c WHERE c.study_id = ?)`,
    )
    .all(studyId, studyId) as { id: number; channel: string | null }[];
  return new Map(rows.map((r) => [String(r.id), (r.channel ?? "web") as Channel]));
}

/** Per-channel figures for a study; pass the dashboard's gold accuracy to avoid computing it twice. */
export function studyChannelStats(db: Db, studyId: number, gold?: readonly GoldAccuracy[]): ChannelStats[] {
  getStudy(db, studyId);
  const labels = loadLatestLabels(db, [studyId]);
  const channels = channelsOf(db, studyId);
  const channelOf = (annotatorId: string) => channels.get(annotatorId) ?? "web";
  return channelStats(
    listCrowdAssignments(db, studyId).map((a) => ({
      channel: a.channel as Channel,
      annotatorId: String(a.annotatorId),
      status: a.status,
      rewardUsd: a.rewardUsd,
      workSeconds: a.workSeconds,
    })),
    labels.map((l) => ({ annotatorId: l.annotatorId, channel: channelOf(l.annotatorId), secondsOnTask: l.secondsOnTask })),
    (gold ?? goldAccuracy(goldFor(loadItems(db, [studyId])), labels)).map((g) => ({ annotatorId: g.annotatorId, attempted: g.attempted, passed: g.passed })),
  );
}

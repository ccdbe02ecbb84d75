/**
 * Rows for the dashboard's per-channel table: the study's latest labels and gold accuracy as the
 * dashboard reads them, the crowd assignments the channels reported, and each annotator's
 * channel (expert and admin accounts count as "web").
 */
import { channelStats, type Channel, type ChannelStats } from "../../domain/crowd/channel-stats.ts";
import { goldAccuracy, type GoldAccuracy } from "../../domain/validation/index.ts";
import type { Db } from "../db.server.ts";
import { goldFor } from "../../domain/validation/gold-items.ts";
import { loadItems, loadLatestLabels } from "../annotation/dashboard-data.server.ts";
import { studyOrNotFound } from "./crowd-study.server.ts";
import { annotatorChannelsOfStudy, listCrowdAssignments } from "../models/crowd-assignment.server.ts";

async function channelsOf(db: Db, studyId: number): Promise<Map<string, Channel>> {
  return new Map(
    (await annotatorChannelsOfStudy(db, studyId)).map((r) => [String(r.id), (r.channel ?? "web") as Channel]),
  );
}

/** Per-channel figures for a study; pass the dashboard's gold accuracy to avoid computing it twice. */
export async function studyChannelStats(
  db: Db,
  studyId: number,
  gold?: readonly GoldAccuracy[],
): Promise<ChannelStats[]> {
  await studyOrNotFound(db, studyId);
  const labels = await loadLatestLabels(db, [studyId], "stored");
  const channels = await channelsOf(db, studyId);
  const channelOf = (annotatorId: string) => channels.get(annotatorId) ?? "web";
  return channelStats(
    (await listCrowdAssignments(db, studyId)).map((a) => ({
      channel: a.channel as Channel,
      annotatorId: String(a.annotatorId),
      status: a.status,
      rewardUsd: a.rewardUsd,
      workSeconds: a.workSeconds,
    })),
    labels.map((l) => ({
      annotatorId: l.annotatorId,
      channel: channelOf(l.annotatorId),
      secondsOnTask: l.secondsOnTask,
    })),
    (gold ?? goldAccuracy(goldFor(await loadItems(db, [studyId])), labels)).map((g) => ({
      annotatorId: g.annotatorId,
      attempted: g.attempted,
      passed: g.passed,
    })),
  );
}

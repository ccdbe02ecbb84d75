/**
 * Every crowd channel, in the order /crowd/start tries their entry parameters (Prolific first:
 * its parameters, once present, must all be valid). Add a channel here.
 */
import type { Db } from "../server/db.server.ts";
import type { CrowdChannel, CrowdChannelId } from "./channel.server.ts";
import { linkChannel } from "./link/channel.server.ts";
import { mturkBatchChannel } from "./mturk/batch.server.ts";
import { mturkExternalChannel } from "./mturk/external.server.ts";
import { prolificChannel } from "./prolific/channel.server.ts";

export const CROWD_CHANNELS: readonly CrowdChannel[] = [prolificChannel, linkChannel, mturkBatchChannel, mturkExternalChannel];

export function crowdChannel(id: CrowdChannelId): CrowdChannel {
  const channel = CROWD_CHANNELS.find((c) => c.id === id);
  if (!channel) throw new Error(`No crowd channel "${id}"`);
  return channel;
}

/** The channel whose /crowd/start parameters the request carries, if any. */
export function channelForEntry(params: URLSearchParams): (CrowdChannel & { entry: Extract<CrowdChannel["entry"], { path: "/crowd/start" }> }) | null {
  for (const channel of CROWD_CHANNELS) {
    const entry = channel.entry;
    if ("matches" in entry && entry.matches(params)) return { ...channel, entry };
  }
  return null;
}

/**
 * The channel a logged-in crowd worker came through, by their identity namespace. Channels that
 * share one (MTurk batch and ExternalQuestion) also share their completion, so the first will do.
 */
export function channelOfWorker(workerChannel: string | null): CrowdChannel | null {
  return CROWD_CHANNELS.find((c) => c.identity.workerChannel === workerChannel) ?? null;
}

/**
 * Where a worker goes next when their channel ends work its own way (Prolific's completion code):
 * the step's page, or the end page. Null when the channel has no such step (the usual allocation).
 */
export function channelNextPath(db: Db, studyId: number, worker: { id: number; channel: string | null }): string | null {
  const finish = channelOfWorker(worker.channel)?.completion.finish;
  if (!finish) return null;
  const step = finish(db, studyId, worker.id);
  return step.kind === "task" || step.kind === "qualify" ? step.path : `/crowd/done?study=${studyId}`;
}

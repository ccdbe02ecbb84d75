/**
 * The server half of every crowd channel (one line each; its pure descriptor is in registry.ts),
 * in the order /crowd/start tries their entry parameters (Prolific first: its parameters, once
 * present, must all be valid). Typed by the channel ids registry.ts declares, so a declared
 * channel without its server half does not compile.
 */
import type { Db } from "../server/db.server.ts";
import type { StudyRow } from "../server/models/study.server.ts";
import type { CrowdChannel, CrowdChannelId } from "./channel.server.ts";
import { linkChannel } from "./link/channel.server.ts";
import { mturkBatchChannel } from "./mturk/batch.server.ts";
import { mturkExternalChannel } from "./mturk/external.server.ts";
import { NO_ACTION_DATA, type ChannelActionData } from "./panel.ts";
import { prolificChannel } from "./prolific/channel.server.ts";

const BY_ID: Record<CrowdChannelId, CrowdChannel> = {
  prolific: prolificChannel,
  link: linkChannel,
  "mturk-batch": mturkBatchChannel,
  "mturk-external": mturkExternalChannel,
};

export const CROWD_CHANNELS: readonly CrowdChannel[] = Object.values(BY_ID);

export function crowdChannel(id: CrowdChannelId): CrowdChannel {
  const channel = (BY_ID as Partial<Record<string, CrowdChannel>>)[id];
  if (!channel || channel.id !== id) throw new Error(`No crowd channel "${id}"`);
  return channel;
}

/** The channel whose /crowd/start parameters the request carries, if any. */
export function channelForEntry(
  params: URLSearchParams,
): (CrowdChannel & { entry: Extract<CrowdChannel["entry"], { path: "/crowd/start" }> }) | null {
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
export async function channelNextPath(
  db: Db,
  studyId: number,
  worker: { id: number; channel: string | null },
): Promise<string | null> {
  const finish = channelOfWorker(worker.channel)?.completion.finish;
  if (!finish) return null;
  const step = await finish(db, studyId, worker.id);
  return step.kind === "task" || step.kind === "qualify" ? step.path : `/crowd/done?study=${studyId}`;
}

/** What each channel's dashboard panel shows for a crowd study, by channel id (the loader's part). */
export async function channelPanelData(
  db: Db,
  study: Pick<StudyRow, "id" | "config">,
  origin: string,
): Promise<Record<string, unknown>> {
  const panels: Record<string, unknown> = {};
  for (const c of CROWD_CHANNELS) if (c.dashboard) panels[c.id] = await c.dashboard.load(db, study, origin);
  return panels;
}

/** Answers a dashboard form post by the channel panel whose intent it is; an unknown intent is a 400. */
export async function channelPanelAction(
  db: Db,
  studyId: number,
  intent: string,
  form: FormData,
  requestUrl: string,
): Promise<{ data: ChannelActionData; status: number }> {
  const channel = CROWD_CHANNELS.find((c) => c.dashboard?.intent === intent);
  if (!channel?.dashboard) return { data: { ...NO_ACTION_DATA, error: `Unknown action "${intent}"` }, status: 400 };
  const { result, status } = await channel.dashboard.act(db, studyId, form, requestUrl);
  return { data: { panel: { channel: channel.id, result }, error: null }, status };
}

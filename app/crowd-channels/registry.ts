/**
 * Every crowd-channel folder (pure): one line each. The id lists and names the rest of the app
 * uses are derived from here — the worker namespaces (annotators.channel), the channel ids, the
 * dashboard's channel rows and the channel commands of the CLI. Each channel's server half is
 * registered in registry.server.ts, its dashboard panel or end page in registry.tsx.
 */
import { LINK_FOLDER } from "./link/descriptor.ts";
import { MTURK_FOLDER } from "./mturk/descriptor.ts";
import { PROLIFIC_FOLDER } from "./prolific/descriptor.ts";

/** In the order of the dashboard's Channels table. */
export const CHANNEL_FOLDERS = [LINK_FOLDER, MTURK_FOLDER, PROLIFIC_FOLDER] as const;

type Folder = (typeof CHANNEL_FOLDERS)[number];

/** The namespaces crowd workers are stored under (annotators.channel). */
export type WorkerChannel = Folder["id"];
export const WORKER_CHANNELS: readonly WorkerChannel[] = CHANNEL_FOLDERS.map((f) => f.id);

/** Every way in; each has one server entry in registry.server.ts. */
export type CrowdChannelId = Folder["channelIds"][number];
export const CROWD_CHANNEL_IDS: readonly CrowdChannelId[] = CHANNEL_FOLDERS.flatMap((f) => f.channelIds);

/** The folders that bring a `socrates` command group. */
export type CommandFolder = Extract<Folder, { command: object }>["id"];

export function isWorkerChannel(value: string | null): value is WorkerChannel {
  return (WORKER_CHANNELS as readonly (string | null)[]).includes(value);
}

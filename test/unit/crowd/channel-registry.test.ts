/**
 * The crowd-channel registry: every channel is complete and distinct, /crowd/start finds the
 * channel by its parameters (Prolific's first), and a worker's identity namespace leads back to
 * the channel's completion. The pure registry (app/crowd-channels/registry.ts) and its server and
 * component halves agree, and the id lists derived from it are the ones the app has always used.
 */
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { CHANNEL_FOLDERS, CROWD_CHANNEL_IDS } from "../../../app/crowd-channels/registry.ts";
import { CHANNEL_COMPONENTS } from "../../../app/crowd-channels/registry.tsx";
import { CONFIRMED_AT_ENTRY, WORKER_CHANNELS } from "../../../app/server/crowd/workers.server.ts";
import { CHANNELS } from "../../../app/domain/crowd/channel-stats.ts";
import { CHANNEL_COMMANDS } from "../../../app/crowd-channels/commands.server.ts";
import {
  CROWD_CHANNELS,
  channelForEntry,
  channelOfWorker,
  crowdChannel,
} from "../../../app/crowd-channels/registry.server.ts";

const params = (query: string) => new URLSearchParams(query);

describe("crowd channel registry", () => {
  it("holds the four channels once each, each counted on the dashboard and stored under a known worker namespace", () => {
    expect(CROWD_CHANNELS.map((c) => c.id).sort()).toEqual(["link", "mturk-batch", "mturk-external", "prolific"]);
    for (const channel of CROWD_CHANNELS) {
      expect(crowdChannel(channel.id)).toBe(channel);
      expect(CHANNELS).toContain(channel.identity.workerChannel);
      expect(WORKER_CHANNELS).toContain(channel.identity.workerChannel);
      expect(channel.title).not.toBe("");
      expect(channel.completion.describe).not.toBe("");
    }
    expect(() => crowdChannel("nope" as never)).toThrow(/No crowd channel "nope"/);
  });

  it("finds the /crowd/start channel by its parameters, Prolific's first", () => {
    expect(channelForEntry(params("study=1&worker=w1&sig=abc"))?.id).toBe("link");
    expect(channelForEntry(params("study=1&assignmentId=A&hitId=H&workerId=W"))?.id).toBe("mturk-batch");
    expect(channelForEntry(params("study=1&PROLIFIC_PID=p&STUDY_ID=s&SESSION_ID=x"))?.id).toBe("prolific");
    expect(channelForEntry(params("study=1&PROLIFIC_PID=p&sig=abc"))?.id).toBe("prolific");
    expect(channelForEntry(params("study=1"))).toBeNull();
    // ExternalQuestion HITs come in through their own route, never /crowd/start.
    expect(crowdChannel("mturk-external").entry.path).toBe("/mturk/task");
  });

  it("gives a completion code step only on Prolific, and sends only Prolific's locked-out workers away", () => {
    expect(channelOfWorker("prolific")?.completion.finish).not.toBeNull();
    expect(channelOfWorker("prolific")?.completion.lockedOutPath(3)).toBe("/crowd/done?study=3");
    for (const worker of ["link", "mturk"]) {
      expect(channelOfWorker(worker)?.completion.finish).toBeNull();
      expect(channelOfWorker(worker)?.completion.lockedOutPath(3)).toBeNull();
    }
    expect(channelOfWorker(null)).toBeNull();
  });

  it("validates Prolific's settings through the channel", () => {
    const settings = crowdChannel("prolific").settings;
    expect(settings?.read({ config: { prolific: { completionCode: "C0DE1234", itemsPerSession: 5 } } })).toMatchObject({
      completionCode: "C0DE1234",
      itemsPerSession: 5,
    });
    expect(settings?.read({ config: {} })).toBeNull();
    expect(crowdChannel("link").settings).toBeNull();
  });

  it("derives the id lists from the folders: namespaces, dashboard rows, confirmation at entry", () => {
    expect(WORKER_CHANNELS).toEqual(CHANNEL_FOLDERS.map((f) => f.id));
    expect(CHANNELS).toEqual(["web", ...WORKER_CHANNELS]);
    expect(CONFIRMED_AT_ENTRY).toEqual(Object.fromEntries(CHANNEL_FOLDERS.map((f) => [f.id, f.confirmedAtEntry])));
    expect([...CROWD_CHANNEL_IDS].sort()).toEqual(CROWD_CHANNELS.map((c) => c.id).sort());
    // The values the hand-kept lists had before the registry: the dashboard's order and who is verified at entry.
    expect(CHANNELS.slice(0, 4)).toEqual(["web", "link", "mturk", "prolific"]);
    expect(CONFIRMED_AT_ENTRY).toMatchObject({ link: true, mturk: false, prolific: false });
  });

  it("keeps each channel in the folder of its namespace, with a component wherever its server half has a panel or an end view", () => {
    for (const channel of CROWD_CHANNELS) {
      const folder = CHANNEL_FOLDERS.find((f) => (f.channelIds as readonly string[]).includes(channel.id));
      expect(folder?.id).toBe(channel.identity.workerChannel);
      const components = CHANNEL_COMPONENTS[channel.id];
      expect(components?.panel !== undefined).toBe(channel.dashboard !== null);
      expect(components?.endPage !== undefined).toBe(channel.completion.endView !== null);
    }
    const intents = CROWD_CHANNELS.flatMap((c) => (c.dashboard ? [c.dashboard.intent] : []));
    expect(new Set(intents).size).toBe(intents.length);
  });

  it("registers each folder's command under the name and help line its pure descriptor gives (the CLI's help reads those)", async () => {
    const withCommands = CHANNEL_FOLDERS.filter((f) => f.command !== null);
    expect(withCommands.map((f) => f.command?.name)).toEqual(["mturk", "prolific"]);
    for (const folder of withCommands) {
      const program = new Command();
      (await CHANNEL_COMMANDS[folder.id as keyof typeof CHANNEL_COMMANDS]())(program);
      expect(program.commands.map((c) => [c.name(), c.description()])).toEqual([
        [folder.command?.name, folder.command?.description],
      ]);
    }
    expect(Object.keys(CHANNEL_COMMANDS).sort()).toEqual(withCommands.map((f) => f.id).sort());
  });
});

/**
 * Mechanical Turk. Its two ways in, a batch on the requester site (batch.server.ts) and
 * ExternalQuestion HITs framing /mturk/task (external.server.ts), share everything else: the
 * worker's namespace (one MTurk worker is one annotator whichever way they came), the confirmation
 * (MTurk's own record of the assignment), the HIT settings, the API client, the dashboard row and
 * the `mturk` command. So they are one folder with two channel entries.
 */
import { defineChannelFolder } from "../descriptor.ts";

export const MTURK_FOLDER = defineChannelFolder({
  id: "mturk",
  channelIds: ["mturk-batch", "mturk-external"],
  dashboardName: "Mechanical Turk",
  confirmedAtEntry: false,
  command: {
    name: "mturk",
    description:
      "Mechanical Turk: export HIT batches and import their results, or publish HITs and sync assignments through the API",
  },
});

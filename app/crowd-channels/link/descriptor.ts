/** Signed per-worker links: the researcher makes each worker's link on the dashboard. */
import { defineChannelFolder } from "../descriptor.ts";

export const LINK_FOLDER = defineChannelFolder({
  id: "link",
  channelIds: ["link"],
  dashboardName: "Signed links",
  // The signature binds the worker id to the study.
  confirmedAtEntry: true,
  command: null,
});

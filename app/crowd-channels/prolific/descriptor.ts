/** Prolific: participants arrive with Prolific's URL parameters and leave with a completion code. */
import { defineChannelFolder } from "../descriptor.ts";

export const PROLIFIC_FOLDER = defineChannelFolder({
  id: "prolific",
  channelIds: ["prolific"],
  dashboardName: "Prolific",
  // Prolific's study URL is unsigned: a session counts once an imported export lists it.
  confirmedAtEntry: false,
  command: {
    name: "prolific",
    description: "Prolific: confirm participants' sessions from the study's submissions export",
  },
});

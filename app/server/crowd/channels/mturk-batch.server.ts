/**
 * Mechanical Turk batches on the requester site: `mturk export` writes the batch, workers answer
 * in MTurk's own page, and `mturk import` reads the results file back (mturk-import.server.ts).
 * A HIT may instead link out to /crowd/start with MTurk's parameters; that entry is here too.
 */
import { PREVIEW_ASSIGNMENT_ID } from "../external-question-params.server.ts";
import { NO_COMPLETION_CODE, type CrowdChannel } from "./channel.server.ts";
import { crowdSession } from "./session-entry.server.ts";
import { findOrCreateCrowdWorker } from "../workers.server.ts";

export const mturkBatchChannel: CrowdChannel = {
  id: "mturk-batch",
  title: "Mechanical Turk batch (requester site)",
  entry: {
    path: "/crowd/start",
    params: ["study", "assignmentId", "hitId", "workerId"],
    matches: (params) => params.has("assignmentId"),
    enter(db, study, params) {
      if (params.get("assignmentId") === PREVIEW_ASSIGNMENT_ID) return { kind: "preview" };
      const workerId = params.get("workerId") ?? "";
      if (!workerId || !params.get("hitId")) return { kind: "invalid", status: 400, message: "The link is missing workerId or hitId." };
      return crowdSession(db, study.id, findOrCreateCrowdWorker(db, "mturk", workerId));
    },
  },
  identity: { workerChannel: "mturk", verifiedBy: "MTurk's WorkerId in the results file (or the HIT link)" },
  completion: {
    describe: "MTurk ends the assignment when the worker submits; the import writes a review file approving or rejecting it from the gold checks.",
    ...NO_COMPLETION_CODE,
  },
  // The HIT settings are given to `mturk export` on the command line (hit-settings.server.ts).
  settings: null,
  dashboard: { channel: "mturk" },
};

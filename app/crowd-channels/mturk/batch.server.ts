/**
 * Mechanical Turk batches on the requester site: `mturk export` writes the batch, workers answer
 * in MTurk's own page, and `mturk import` reads the results file back (import.server.ts).
 * The worker's identity comes from that file, which MTurk itself wrote.
 *
 * A HIT that links out to /crowd/start with MTurk's query parameters is not accepted: those
 * parameters are unsigned, so anyone could claim any WorkerId with them. Such a link gets a page
 * saying so (and nothing is stored, no session started); HITs that show our task use
 * ExternalQuestion (`mturk publish`, /mturk/task), whose answers stay pending until MTurk confirms them.
 */
import { type CrowdChannel, type EntryOutcome, NO_COMPLETION_CODE } from "../channel.server.ts";

/** What a worker (or a researcher trying the link) reads on a link-out HIT's page. */
export const LINK_OUT_REFUSED =
  "This kind of Mechanical Turk link is not accepted: a link that only carries MTurk's assignmentId, hitId and workerId cannot show who you are. " +
  "If you are a worker, please return this HIT. " +
  'Researchers: publish HITs with "socrates mturk publish" (the task opens inside MTurk) or export a batch for the requester site with "socrates mturk export".';

const refused: Extract<EntryOutcome, { kind: "refused" }> = { kind: "refused", status: 403, message: LINK_OUT_REFUSED };

export const mturkBatchChannel: CrowdChannel = {
  id: "mturk-batch",
  title: "Mechanical Turk batch (requester site)",
  entry: {
    path: "/crowd/start",
    // Recognised only to be refused with a clear page; the batch itself needs no entry URL.
    params: ["study", "assignmentId", "hitId", "workerId"],
    workerParam: null,
    matches: (params) => params.has("assignmentId") || params.has("hitId") || params.has("workerId"),
    check: async () => refused,
    enter: async () => refused,
    unsigned: true,
    returnNote: null,
  },
  identity: {
    workerChannel: "mturk",
    verifiedBy:
      "MTurk's WorkerId in the results file downloaded from the requester site (never from a link's parameters)",
  },
  completion: {
    describe:
      "MTurk ends the assignment when the worker submits; the import writes a review file approving or rejecting it from the gold checks.",
    ...NO_COMPLETION_CODE,
  },
  // The HIT settings are given to `mturk export` on the command line (hit-settings.server.ts).
  settings: null,
  // Its commands, not a dashboard panel, make and read batches.
  dashboard: null,
};

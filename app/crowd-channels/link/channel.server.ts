/** Signed per-worker links: the dashboard makes a link whose signature binds a worker id to the study. */
import { verifyCrowdLink } from "../../server/auth/crowd-link.server.ts";
import { NO_COMPLETION_CODE, type CrowdChannel, type EntryOutcome } from "../channel.server.ts";
import { crowdSession } from "../session-entry.server.ts";
import { linkDashboard } from "./panel.server.ts";
import { findOrCreateCrowdWorker } from "../../server/crowd/workers.server.ts";

function badLink(studyId: number, params: URLSearchParams): Extract<EntryOutcome, { kind: "invalid" }> | null {
  const workerId = params.get("worker") ?? "";
  if (workerId && verifyCrowdLink(studyId, workerId, params.get("sig") ?? "")) return null;
  return { kind: "invalid", status: 403, message: "This link is not valid. Please use the exact link you were given." };
}

export const linkChannel: CrowdChannel = {
  id: "link",
  title: "Signed per-worker link",
  entry: {
    path: "/crowd/start",
    params: ["study", "worker", "sig"],
    workerParam: "worker",
    matches: (params) => params.has("sig"),
    check: async (_db, study, params) => badLink(study.id, params),
    async enter(db, study, params) {
      const bad = badLink(study.id, params);
      if (bad) return bad;
      return await crowdSession(db, study.id, await findOrCreateCrowdWorker(db, "link", params.get("worker") ?? ""));
    },
    // The researcher made each link: the signature, not a limit, bounds who enters.
    unsigned: false,
    returnNote: null,
  },
  identity: {
    workerChannel: "link",
    verifiedBy: "an HMAC signature over the study and worker id, made with the app secret",
  },
  completion: {
    describe: "Work until nothing is left for the worker; pay is arranged outside the app.",
    ...NO_COMPLETION_CODE,
  },
  settings: null,
  dashboard: linkDashboard,
};

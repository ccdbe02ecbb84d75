/** Signed per-worker links: the dashboard makes a link whose signature binds a worker id to the study. */
import { verifyCrowdLink } from "../../auth/crowd-link.server.ts";
import { NO_COMPLETION_CODE, type CrowdChannel } from "./channel.server.ts";
import { crowdSession } from "./session-entry.server.ts";
import { findOrCreateCrowdWorker } from "../workers.server.ts";

export const linkChannel: CrowdChannel = {
  id: "link",
  title: "Signed per-worker link",
  entry: {
    path: "/crowd/start",
    params: ["study", "worker", "sig"],
    workerParam: "worker",
    matches: (params) => params.has("sig"),
    enter(db, study, params) {
      const workerId = params.get("worker") ?? "";
      if (!workerId || !verifyCrowdLink(study.id, workerId, params.get("sig") ?? "")) {
        return { kind: "invalid", status: 403, message: "This link is not valid. Please use the exact link you were given." };
      }
      return crowdSession(db, study.id, findOrCreateCrowdWorker(db, "link", workerId));
    },
  },
  identity: { workerChannel: "link", verifiedBy: "an HMAC signature over the study and worker id, made with the app secret" },
  completion: { describe: "Work until nothing is left for the worker; pay is arranged outside the app.", ...NO_COMPLETION_CODE },
  settings: null,
  dashboard: { channel: "link" },
};

/** The link channel's dashboard panel: one worker's signed link, made on the researcher's request. */
import { crowdLinkPath } from "../../server/auth/crowd-link.server.ts";
import { isWorkerId } from "../../server/crowd/workers.server.ts";
import { WORKER_ID_FORMAT } from "../../domain/crowd/worker-id.ts";
import type { ChannelDashboard } from "../channel.server.ts";
import type { LinkPanelResult } from "./panel.ts";

function signedLink(studyId: number, form: FormData, requestUrl: string): { result: LinkPanelResult; status: number } {
  const workerId = String(form.get("workerId") ?? "").trim();
  if (!isWorkerId(workerId)) {
    const given = workerId ? `"${workerId.slice(0, 80)}" is not a worker id: ` : "A worker id is needed: ";
    return { result: { link: null, error: `${given}a worker id is ${WORKER_ID_FORMAT}.` }, status: 400 };
  }
  return {
    result: { link: new URL(crowdLinkPath(studyId, workerId), requestUrl).toString(), error: null },
    status: 200,
  };
}

export const linkDashboard: ChannelDashboard = {
  // The form needs nothing but the study.
  load: async () => ({}),
  intent: "link",
  act: async (_db, studyId, form, requestUrl) => signedLink(studyId, form, requestUrl),
};

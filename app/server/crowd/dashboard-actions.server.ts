/** The crowd side of the study dashboard's form posts: one worker's signed link, a channel's settings. */
import { crowdLinkPath } from "../auth/crowd-link.server.ts";
import type { Db } from "../db.server.ts";
import { ServiceError } from "../http/errors.server.ts";
import type { ActionFailure } from "../http/responses.server.ts";
import { crowdChannel } from "../../crowd-channels/registry.server.ts";
import { isWorkerId } from "./workers.server.ts";
import { WORKER_ID_FORMAT } from "../../domain/crowd/worker-id.ts";

export interface DashboardActionData {
  /** The signed link just made. */
  link: string | null;
  error: string | null;
  /** The outcome of saving the Prolific settings. */
  prolific: { ok: true } | ActionFailure | null;
}

export const NO_ACTION_DATA: DashboardActionData = { link: null, error: null, prolific: null };

export interface DashboardActionReply {
  data: DashboardActionData;
  status: number;
}

function signedLink(studyId: number, form: FormData, requestUrl: string): DashboardActionReply {
  const workerId = String(form.get("workerId") ?? "").trim();
  if (!isWorkerId(workerId)) {
    const given = workerId ? `"${workerId.slice(0, 80)}" is not a worker id: ` : "A worker id is needed: ";
    return { data: { ...NO_ACTION_DATA, error: `${given}a worker id is ${WORKER_ID_FORMAT}.` }, status: 400 };
  }
  return { data: { ...NO_ACTION_DATA, link: new URL(crowdLinkPath(studyId, workerId), requestUrl).toString() }, status: 200 };
}

/** Saves Prolific's settings through its channel; field problems go back to the form, a missing study is thrown (404). */
function prolificSettings(db: Db, studyId: number, form: FormData): DashboardActionReply {
  const settings = crowdChannel("prolific").settings;
  if (!settings) throw new Error("The Prolific channel has no settings");
  try {
    settings.update(db, studyId, Object.fromEntries(form));
    return { data: { ...NO_ACTION_DATA, prolific: { ok: true } }, status: 200 };
  } catch (err) {
    if (!(err instanceof ServiceError) || err.status === 404) throw err;
    return { data: { ...NO_ACTION_DATA, prolific: { ok: false, message: err.message, problems: err.problems } }, status: err.status };
  }
}

/** Dispatches a crowd intent posted from the study dashboard; an unknown intent is a 400. */
export function crowdDashboardAction(db: Db, studyId: number, intent: string, form: FormData, requestUrl: string): DashboardActionReply {
  if (intent === "link") return signedLink(studyId, form, requestUrl);
  if (intent === "prolific") return prolificSettings(db, studyId, form);
  return { data: { ...NO_ACTION_DATA, error: `Unknown action "${intent}"` }, status: 400 };
}

/**
 * The crowd side of the study dashboard's form posts: each is answered by the channel panel whose
 * intent it names (a worker's signed link, Prolific's settings, …), found in the channel registry.
 */
import { channelPanelAction } from "../../crowd-channels/registry.server.ts";
import type { ChannelActionData } from "../../crowd-channels/panel.ts";
import type { Db } from "../db.server.ts";

export { NO_ACTION_DATA } from "../../crowd-channels/panel.ts";
export type DashboardActionData = ChannelActionData;

export interface DashboardActionReply {
  data: DashboardActionData;
  status: number;
}

/** Dispatches a crowd intent posted from the study dashboard; an unknown intent is a 400, a missing study a 404. */
export async function crowdDashboardAction(
  db: Db,
  studyId: number,
  intent: string,
  form: FormData,
  requestUrl: string,
): Promise<DashboardActionReply> {
  return await channelPanelAction(db, studyId, intent, form, requestUrl);
}

/** The Prolific panel of a crowd study's dashboard: its settings, the study URL, the sessions' counts. */
import { ServiceError } from "../../server/http/errors.server.ts";
import type { ChannelDashboard } from "../channel.server.ts";
import type { ProlificPanelData, ProlificPanelResult } from "./panel.ts";
import {
  prolificSessionCounts,
  prolificSettingsOf,
  prolificStudyUrl,
  updateProlificSettings,
} from "./sessions.server.ts";

export const prolificDashboard: ChannelDashboard = {
  load: async (db, study, origin): Promise<ProlificPanelData> => ({
    settings: prolificSettingsOf(study),
    studyUrl: prolificStudyUrl(origin, study.id),
    sessions: await prolificSessionCounts(db, study.id),
  }),
  intent: "prolific",
  /** Saves the settings; field problems go back to the form, a missing study is thrown (404). */
  async act(db, studyId, form): Promise<{ result: ProlificPanelResult; status: number }> {
    try {
      await updateProlificSettings(db, studyId, Object.fromEntries(form));
      return { result: { ok: true }, status: 200 };
    } catch (err) {
      if (!(err instanceof ServiceError) || err.status === 404) throw err;
      return { result: { ok: false, message: err.message, problems: err.problems }, status: err.status };
    }
  },
};

/**
 * Prolific: participants arrive at /crowd/start with PROLIFIC_PID, STUDY_ID and SESSION_ID and
 * leave with the study's completion code (sessions.server.ts does the work). Their
 * labels count once the researcher imports Prolific's export (import.server.ts).
 */
import { ServiceError } from "../../server/http/errors.server.ts";
import {
  checkProlificEntry,
  enterProlificSession,
  isProlificEntry,
  prolificEndView,
  prolificSettingsOf,
  prolificStep,
  prolificStepPath,
  updateProlificSettings,
} from "./sessions.server.ts";
import type { CompletionStep, CrowdChannel } from "../channel.server.ts";
import { prolificDashboard } from "./panel.server.ts";

export const prolificChannel: CrowdChannel = {
  id: "prolific",
  title: "Prolific",
  entry: {
    path: "/crowd/start",
    params: ["study", "PROLIFIC_PID", "STUDY_ID", "SESSION_ID"],
    workerParam: "PROLIFIC_PID",
    matches: isProlificEntry,
    async check(db, study, params) {
      try {
        await checkProlificEntry(db, study.id, params);
        return null;
      } catch (err) {
        if (err instanceof ServiceError) return { kind: "refused", status: err.status, message: err.message };
        throw err;
      }
    },
    async enter(db, study, params) {
      try {
        const entry = await enterProlificSession(db, study.id, params);
        return { kind: "session", annotatorId: entry.annotatorId, next: entry.next, created: !entry.revisit };
      } catch (err) {
        // Participants get a page in plain words (with the status), not an error screen.
        if (err instanceof ServiceError) return { kind: "refused", status: err.status, message: err.message };
        throw err;
      }
    },
    unsigned: true,
    returnNote: "Please return your place in the study on Prolific.",
  },
  identity: {
    workerChannel: "prolific",
    verifiedBy:
      "not on entry (Prolific's study URL is unsigned): each SESSION_ID is recorded once, and its labels stay pending until an imported Prolific export lists the session (socrates prolific import)",
  },
  completion: {
    describe:
      "The session ends after the study's items per session (or when nothing is left); the participant gets the completion code and goes back to Prolific.",
    async finish(db, studyId, annotatorId): Promise<CompletionStep> {
      const step = await prolificStep(db, studyId, annotatorId);
      if (step.kind === "task" || step.kind === "qualify")
        return { kind: step.kind, path: prolificStepPath(studyId, step) };
      if (step.kind === "not-qualified") return step;
      const { code, url, labels } = step.completion;
      return { kind: "complete", code, url, labels };
    },
    async endView(db, studyId, annotatorId) {
      const view = await prolificEndView(db, studyId, annotatorId);
      if (view === null || view.kind === "not-qualified") return view;
      const { code, url, labels } = view.completion;
      return { kind: "complete", code, url, labels };
    },
    lockedOutPath: (studyId) => `/crowd/done?study=${studyId}`,
  },
  settings: { read: prolificSettingsOf, update: updateProlificSettings },
  dashboard: prolificDashboard,
};

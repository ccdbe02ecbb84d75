/**
 * Mechanical Turk ExternalQuestion HITs (`mturk publish`): MTurk frames /mturk/task, whose route
 * dispatches here. The worker is identified by MTurk's parameters, bound into a signed token.
 */
import { parseExternalQuestionParams } from "./external-question-params.server.ts";
import { externalTaskPage, saveExternalDraft, submitExternalQuestion } from "./external-question.server.ts";
import { NO_COMPLETION_CODE, type CrowdChannel } from "../channel.server.ts";

export const mturkExternalChannel = {
  id: "mturk-external",
  title: "Mechanical Turk ExternalQuestion HITs",
  entry: {
    path: "/mturk/task",
    describe: "MTurk frames /mturk/task?study=…&item=… and appends assignmentId, hitId, workerId and turkSubmitTo",
  },
  identity: {
    workerChannel: "mturk",
    verifiedBy: "MTurk's parameters, signed into a token the submit is checked against",
  },
  completion: {
    describe:
      "The answer is stored once per AssignmentId, then the page posts it to MTurk's externalSubmit; `mturk sync` approves or rejects it.",
    ...NO_COMPLETION_CODE,
  },
  // The HIT settings are given to `mturk publish` on the command line (hit-settings.server.ts).
  settings: null,
  dashboard: null,
  /** The task page for MTurk's query parameters. */
  page: async (db: Parameters<typeof externalTaskPage>[0], params: URLSearchParams) =>
    await externalTaskPage(db, parseExternalQuestionParams(params)),
  submit: submitExternalQuestion,
  saveDraft: saveExternalDraft,
} satisfies CrowdChannel & Record<string, unknown>;

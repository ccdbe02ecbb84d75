/**
 * Prolific: participants arrive on the study URL with PROLIFIC_PID, STUDY_ID and SESSION_ID,
 * become crowd annotators keyed by their PID, and each visit's session is one crowd assignment
 * (keyed by SESSION_ID, so reopening the link changes nothing). A session is complete once the
 * participant has labelled the study's `itemsPerSession` items, or nothing is left for them;
 * then they get the completion code and go back to Prolific's completion URL.
 *
 * Nothing in the study URL is signed, so a session proves nothing by itself: the participant's
 * labels are stored pending (annotation/identity.server.ts) until an imported Prolific export
 * lists the session as submitted with the study's completion code (import.server.ts).
 */
import { z } from "zod";
import type { Db } from "../../server/db.server.ts";
import { nextTask } from "../../server/annotation/assignment.server.ts";
import { ServiceError, badInput, forbidden, zodProblems } from "../../server/http/errors.server.ts";
import { plainProblem } from "../../domain/crowd/plain-problems.ts";
import { releaseLeasesOf } from "../../server/models/assignment.server.ts";
import {
  findSession,
  insertCrowdAssignment,
  latestSession,
  markSessionSubmitted,
  sessionConfirmationCounts,
} from "../../server/models/crowd-assignment.server.ts";
import { labelCountInStudy } from "../../server/models/label.server.ts";
import { findCrowdWorker } from "../../server/models/annotator.server.ts";
import { setStudyConfig, type StudyRow } from "../../server/models/study.server.ts";
import { studyOrNotFound } from "../../server/crowd/crowd-study.server.ts";
import { qualificationState } from "../../server/crowd/qualification.server.ts";
import { findOrCreateCrowdWorker } from "../../server/crowd/workers.server.ts";
import { parseStudyConfig, prolificSettingsSchema, type ProlificSettings } from "../../domain/study-config.ts";
import { studyLock, transact } from "../../server/db-transaction.server.ts";

const CHANNEL = "prolific";

export const PROLIFIC_COMPLETION_URL = "https://app.prolific.com/submissions/complete";
const PARAMS = ["PROLIFIC_PID", "STUDY_ID", "SESSION_ID"] as const;

export function prolificCompletionUrl(code: string): string {
  return `${PROLIFIC_COMPLETION_URL}?cc=${encodeURIComponent(code)}`;
}

/** The URL to paste into Prolific; Prolific replaces each {{%…%}} placeholder per participant. */
export function prolificStudyUrl(origin: string, studyId: number): string {
  return `${origin.replace(/\/$/, "")}/crowd/start?study=${studyId}&${PARAMS.map((p) => `${p}={{%${p}%}}`).join("&")}`;
}

export function prolificSettingsOf(study: Pick<StudyRow, "config">): ProlificSettings | null {
  return parseStudyConfig(study.config).prolific ?? null;
}

/** True when the request carries any of Prolific's parameters (then all three must be valid). */
export function isProlificEntry(params: URLSearchParams): boolean {
  return PARAMS.some((p) => params.has(p));
}

const prolificId = (name: string) =>
  z
    .string({ required_error: `${name} is missing` })
    .trim()
    .min(1, `${name} is empty`)
    .refine(
      (v) => !v.includes("{{%"),
      `${name} still holds Prolific's placeholder; Prolific fills it in when a participant opens the study`,
    )
    .pipe(z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, `${name} must be 1–64 letters, digits, '_' or '-'`));

export const prolificParamsSchema = z.object({
  PROLIFIC_PID: prolificId("PROLIFIC_PID"),
  STUDY_ID: prolificId("STUDY_ID"),
  SESSION_ID: prolificId("SESSION_ID"),
});
export type ProlificParams = z.infer<typeof prolificParamsSchema>;

export function parseProlificParams(params: URLSearchParams): ProlificParams {
  const parsed = prolificParamsSchema.safeParse(
    Object.fromEntries(PARAMS.filter((p) => params.has(p)).map((p) => [p, params.get(p)])),
  );
  if (parsed.success) return parsed.data;
  const problems = zodProblems(parsed.error);
  // A participant reads the message: each problem in words, not as a URL parameter.
  throw badInput(
    `This Prolific link is not valid. ${problems.map(plainProblem).join(" ")} Please open the study from Prolific again.`,
    problems,
  );
}

export const NOT_SET_UP_MESSAGE =
  "This study is not ready for Prolific participants yet: the researcher has not finished setting it up. " +
  "Please return your place in the study on Prolific; you have done nothing wrong, and you may be able to take part later.";

/** A Prolific study needs its settings before anyone may start; the participant is told so. */
function settingsOrRefuse(study: StudyRow): ProlificSettings {
  if (study.pool !== "crowd") throw forbidden("This study is not open to crowd workers.");
  const settings = prolificSettingsOf(study);
  if (!settings) throw new ServiceError(409, NOT_SET_UP_MESSAGE);
  return settings;
}

/** Where a crowd worker goes before any task: the reading test, or the end once its attempts are used up. */
async function qualificationPath(db: Db, studyId: number, annotatorId: number): Promise<string | null> {
  const state = await qualificationState(db, annotatorId);
  if (state === "qualified") return null;
  return state === "locked" ? `/crowd/done?study=${studyId}` : `/crowd/qualify?study=${studyId}`;
}

export interface ProlificEntry {
  annotatorId: number;
  /** The crowd_assignments row of this session. */
  sessionRowId: number;
  /** True when this SESSION_ID had been seen before (a reload or a return to the link). */
  revisit: boolean;
  /** Where to send the participant next. */
  next: string;
}

/**
 * What entering would refuse, found without writing (the entry page's GET): a bad link (400), a
 * study without Prolific settings or a closed one (409), a SESSION_ID already used by another
 * participant or study (409).
 */
export async function checkProlificEntry(db: Db, studyId: number, params: URLSearchParams): Promise<void> {
  const study = await studyOrNotFound(db, studyId);
  const ids = parseProlificParams(params);
  settingsOrRefuse(study);
  if (study.status !== "open")
    throw new ServiceError(
      409,
      "This study is closed and takes no more answers. Please return your place in it on Prolific.",
    );
  const stored = await findSession(db, CHANNEL, ids.SESSION_ID);
  const known = await findCrowdWorker(db, CHANNEL, ids.PROLIFIC_PID);
  if (
    stored &&
    (stored.annotatorId !== known || stored.studyId !== studyId || stored.externalGroupId !== ids.STUDY_ID)
  ) {
    throw new ServiceError(
      409,
      `The Prolific session ${ids.SESSION_ID} belongs to another participant or study. Please open the study from Prolific again.`,
    );
  }
}

/**
 * Identifies the participant and records the session (status accepted). Refuses a bad link
 * (400), a study without Prolific settings or a closed one (409), and a SESSION_ID already used
 * by another participant or study (409).
 */
export async function enterProlificSession(
  db: Db,
  studyId: number,
  params: URLSearchParams,
  now = new Date(),
): Promise<ProlificEntry> {
  const study = await studyOrNotFound(db, studyId);
  const ids = parseProlificParams(params);
  const settings = settingsOrRefuse(study);
  if (study.status !== "open")
    throw new ServiceError(
      409,
      "This study is closed and takes no more answers. Please return your place in it on Prolific.",
    );
  const entry = await transact(
    db,
    async (db): Promise<Omit<ProlificEntry, "next">> => {
      const annotatorId = await findOrCreateCrowdWorker(db, CHANNEL, ids.PROLIFIC_PID);
      const stored = await findSession(db, CHANNEL, ids.SESSION_ID);
      if (stored) {
        if (
          stored.annotatorId !== annotatorId ||
          stored.studyId !== studyId ||
          stored.externalGroupId !== ids.STUDY_ID
        ) {
          throw new ServiceError(
            409,
            `The Prolific session ${ids.SESSION_ID} belongs to another participant or study. Please open the study from Prolific again.`,
          );
        }
        return { annotatorId, sessionRowId: stored.id, revisit: true };
      }
      const sessionRowId = await insertCrowdAssignment(db, {
        channel: CHANNEL,
        externalId: ids.SESSION_ID,
        externalGroupId: ids.STUDY_ID,
        studyId,
        studyItemId: null,
        annotatorId,
        status: "accepted",
        rewardUsd: settings.rewardUsd ?? null,
        acceptedAt: now.toISOString(),
        source: "prolific",
      });
      return { annotatorId, sessionRowId, revisit: false };
    },
    { lock: studyLock(studyId) },
  );
  return { ...entry, next: (await qualificationPath(db, studyId, entry.annotatorId)) ?? `/annotate/${studyId}/next` };
}

/**
 * The study's Prolific sessions: confirmed by an imported Prolific export (their labels count) or
 * still pending (their labels are stored but left out of every statistic).
 */
export async function prolificSessionCounts(db: Db, studyId: number): Promise<{ confirmed: number; pending: number }> {
  return await sessionConfirmationCounts(db, studyId, CHANNEL);
}

/** Labels the participant has in the study (one per item; revisions do not count twice). */
export async function prolificLabelCount(db: Db, studyId: number, annotatorId: number): Promise<number> {
  return await labelCountInStudy(db, studyId, annotatorId);
}

export interface ProlificCompletion {
  code: string;
  url: string;
  /** Labels in the study and the session's target. */
  labels: number;
  target: number;
  /** Seconds from accepting to completing the session. */
  workSeconds: number | null;
}

export type ProlificStep =
  | { kind: "qualify"; path: string }
  /** The reading test's attempts are used up: no code; the participant should return the study. */
  | { kind: "not-qualified" }
  | { kind: "task"; itemId: number }
  | { kind: "complete"; completion: ProlificCompletion };

/** Marks the participant's latest session in the study submitted (once) and frees any item they still hold. */
async function completeSession(
  db: Db,
  studyId: number,
  annotatorId: number,
  settings: ProlificSettings,
  labels: number,
  now: Date,
): Promise<ProlificCompletion> {
  return await transact(
    db,
    async (db): Promise<ProlificCompletion> => {
      const session = await latestSession(db, CHANNEL, studyId, annotatorId);
      if (!session) throw forbidden("Please open this study through the Prolific link you were given.");
      let workSeconds = session.workSeconds;
      if (session.status === "accepted") {
        const at = now.toISOString();
        workSeconds = session.acceptedAt ? Math.max(0, (now.getTime() - Date.parse(session.acceptedAt)) / 1000) : null;
        await markSessionSubmitted(db, session.id, at, workSeconds, settings.rewardUsd ?? null);
      }
      // A finished participant keeps no lease: the item goes back to the pool at once.
      await releaseLeasesOf(db, studyId, annotatorId);
      return {
        code: settings.completionCode,
        url: prolificCompletionUrl(settings.completionCode),
        labels,
        target: settings.itemsPerSession,
        workSeconds,
      };
    },
    { lock: studyLock(studyId) },
  );
}

/**
 * What a Prolific participant does next in a study: the reading test, a task, or — once they
 * have `itemsPerSession` labels, or there is nothing left for them — the completion code.
 */
export async function prolificStep(
  db: Db,
  studyId: number,
  annotatorId: number,
  now = new Date(),
): Promise<ProlificStep> {
  const study = await studyOrNotFound(db, studyId);
  const settings = settingsOrRefuse(study);
  const before = await qualificationPath(db, studyId, annotatorId);
  if (before) return before.startsWith("/crowd/done") ? { kind: "not-qualified" } : { kind: "qualify", path: before };
  const labels = await prolificLabelCount(db, studyId, annotatorId);
  // A study closed mid-session has no more work: the participant still gets the code.
  if (labels < settings.itemsPerSession && study.status === "open") {
    const lease = await nextTask(db, studyId, annotatorId, now);
    if (lease) return { kind: "task", itemId: lease.itemId };
  }
  return { kind: "complete", completion: await completeSession(db, studyId, annotatorId, settings, labels, now) };
}

/**
 * The end page's view, read-only (its GET writes nothing): no code after failing the reading
 * test, the code once the session has been completed, else null (the session is still going:
 * the next step, a POST, completes it or leases the next item).
 */
export async function prolificEndView(
  db: Db,
  studyId: number,
  annotatorId: number,
): Promise<Exclude<ProlificStep, { kind: "task" } | { kind: "qualify" }> | null> {
  const settings = settingsOrRefuse(await studyOrNotFound(db, studyId));
  if ((await qualificationState(db, annotatorId)) === "locked") return { kind: "not-qualified" };
  const session = await latestSession(db, CHANNEL, studyId, annotatorId);
  if (!session || session.status === "accepted") return null;
  const labels = await prolificLabelCount(db, studyId, annotatorId);
  const code = settings.completionCode;
  return {
    kind: "complete",
    completion: {
      code,
      url: prolificCompletionUrl(code),
      labels,
      target: settings.itemsPerSession,
      workSeconds: session.workSeconds,
    },
  };
}

/** Where each step lives in the app. */
export function prolificStepPath(studyId: number, step: ProlificStep): string {
  if (step.kind === "task") return `/annotate/${studyId}/items/${step.itemId}`;
  if (step.kind === "qualify") return step.path;
  return `/crowd/done?study=${studyId}`;
}

// ---------- the researcher's settings ----------

/** A form field left empty, or not posted at all, is missing. */
const blankToUndefined = (v: unknown) => (v === null || (typeof v === "string" && v.trim() === "") ? undefined : v);
const formNumber = (what: string) =>
  z.preprocess(
    (v) => {
      const b = blankToUndefined(v);
      return typeof b === "string" ? Number(b.trim()) : b;
    },
    z.number({ required_error: `${what} is required`, invalid_type_error: `${what} must be a number` }),
  );

/** The dashboard form: strings as posted, checked against the study config's own schema. */
export const prolificSettingsFormSchema = z.object({
  completionCode: z
    .preprocess(blankToUndefined, z.string({ required_error: "the completion code is required" }).trim())
    .pipe(prolificSettingsSchema.shape.completionCode),
  // Friendly messages first; the study config's schema stays the authority on the bounds.
  itemsPerSession: formNumber("items per session")
    .pipe(z.number().int("items per session must be a whole number").min(1, "items per session must be at least 1"))
    .pipe(prolificSettingsSchema.shape.itemsPerSession),
  rewardUsd: z
    .preprocess(
      blankToUndefined,
      formNumber("the reward").pipe(z.number().min(0, "the reward must not be negative")).optional(),
    )
    .pipe(prolificSettingsSchema.shape.rewardUsd),
});

/** Sets a crowd study's Prolific settings; other config keys are kept. Throws 400 with field problems. */
export async function updateProlificSettings(
  db: Db,
  studyId: number,
  input: Record<string, unknown>,
): Promise<ProlificSettings> {
  const study = await studyOrNotFound(db, studyId);
  if (study.pool !== "crowd")
    throw badInput("Prolific settings are for crowd studies; this is an expert study", [
      { path: "pool", message: "not a crowd study" },
    ]);
  const parsed = prolificSettingsFormSchema.safeParse(input);
  if (!parsed.success) {
    throw badInput("The Prolific settings are not valid", zodProblems(parsed.error, "form"));
  }
  const prolific: ProlificSettings = {
    completionCode: parsed.data.completionCode,
    itemsPerSession: parsed.data.itemsPerSession,
    ...(parsed.data.rewardUsd === undefined ? {} : { rewardUsd: parsed.data.rewardUsd }),
  };
  const config = parseStudyConfig({ ...parseStudyConfig(study.config), prolific });
  await setStudyConfig(db, studyId, config);
  return prolific;
}

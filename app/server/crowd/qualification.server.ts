/**
 * The crowd reading test: attempts are recorded; a pass marks the worker qualified for every crowd
 * study. Attempts are capped per worker (MAX_QUALIFICATION_ATTEMPTS) and, because a made-up
 * worker id (an unsigned MTurk or Prolific entry) is a fresh worker, also per client network
 * (QUALIFICATION_ATTEMPTS_PER_NETWORK), so one person cannot guess their way through the test
 * under many ids. The network cap is global, like the pass it guards (issue 29): a cap per study
 * let ids that passed in one study walk into another whose cap was spent. The network is stored only as a keyed hash
 * (http/load-context.server.ts).
 */
import {
  QualificationAnswerError,
  qualificationKey,
  scoreQualification,
  type QualificationScore,
  type QualificationTest,
} from "../../domain/qualification.ts";
import type { Db } from "../db.server.ts";
import { qualifiedAt, updateAnnotator } from "../models/annotator.server.ts";
import {
  countNetworkAttempts,
  countQualificationAttempts,
  insertQualificationAttempt,
} from "../models/qualification-attempt.server.ts";
import { loadQualificationTest } from "../templates.server.ts";
import { transact } from "../db-transaction.server.ts";

/** Attempts a worker may make before the test locks (a fail shows the score, never the key). */
export const MAX_QUALIFICATION_ATTEMPTS = 3;

/**
 * Attempts one network may make on the test across all studies, whoever makes them, unless the environment says
 * otherwise.
 */
export const DEFAULT_ATTEMPTS_PER_NETWORK = 6;

/** QUALIFICATION_ATTEMPTS_PER_NETWORK, a whole number ≥ 1 (default 6); anything else is a configuration error. */
export function attemptsPerNetwork(env: Record<string, string | undefined> = process.env): number {
  const raw = env.QUALIFICATION_ATTEMPTS_PER_NETWORK?.trim();
  if (!raw) return DEFAULT_ATTEMPTS_PER_NETWORK;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`QUALIFICATION_ATTEMPTS_PER_NETWORK must be a whole number of at least 1, got "${raw}"`);
  return n;
}

/** Where an attempt comes from: the study whose link the worker entered by, and their network's keyed hash. */
export interface AttemptOrigin {
  studyId: number;
  network: string;
}

export async function recordQualificationAttempt(
  db: Db,
  annotatorId: number,
  test: QualificationTest,
  answers: Record<string, string>,
  origin?: AttemptOrigin,
): Promise<QualificationScore> {
  const score = scoreQualification(test, answers);
  await transact(db, async (db) => await storeAttempt(db, annotatorId, test, answers, score, origin));
  return score;
}

/** Call inside a transaction. */
async function storeAttempt(
  db: Db,
  annotatorId: number,
  test: QualificationTest,
  answers: Record<string, string>,
  score: QualificationScore,
  origin?: AttemptOrigin,
): Promise<void> {
  await insertQualificationAttempt(db, {
    annotatorId,
    testId: qualificationKey(test),
    answers,
    correct: score.correct,
    total: score.total,
    passed: score.passed,
    studyId: origin?.studyId ?? null,
    network: origin?.network ?? null,
  });
  if (score.passed) await updateAnnotator(db, annotatorId, { qualifiedAt: new Date().toISOString() });
}

export async function attemptCount(db: Db, annotatorId: number): Promise<number> {
  return await countQualificationAttempts(db, annotatorId);
}

/** True when the network has used up its attempts on the test (in any study: a pass counts everywhere). */
export async function networkLimitReached(
  db: Db,
  origin: AttemptOrigin,
  env: Record<string, string | undefined> = process.env,
): Promise<boolean> {
  return (await countNetworkAttempts(db, origin.network)) >= attemptsPerNetwork(env);
}

/** Where a worker stands with the test: passed, still to take it, or out of attempts. */
export async function qualificationState(db: Db, annotatorId: number): Promise<"qualified" | "test" | "locked"> {
  if (await qualifiedAt(db, annotatorId)) return "qualified";
  return (await attemptCount(db, annotatorId)) >= MAX_QUALIFICATION_ATTEMPTS ? "locked" : "test";
}

/** What the test page shows after a submit (a pass redirects instead). */
export interface QualificationReply {
  passed: boolean;
  correct: number;
  total: number;
  /** No attempts left: the worker's channel decides where they go. */
  locked: boolean;
  /** The network's attempts on this study are used up: nothing was recorded. */
  networkLimited: boolean;
  error: string | null;
}

export const NETWORK_LIMIT_MESSAGE =
  "Too many reading-test attempts for this study have come from your network, so no more can be taken from it. " +
  "If you share a network with other participants (a campus, office or café), please contact the researcher.";

const refusal = (over: Partial<QualificationReply>): QualificationReply => ({
  passed: false,
  correct: 0,
  total: 0,
  locked: false,
  networkLimited: false,
  error: null,
  ...over,
});

type Outcome = { reply: QualificationReply; status: 200 | 400 | 403 | 429 };

/**
 * Scores a submitted test form and records the attempt. Out of attempts is a 403, the network's
 * cap reached a 429 (both record nothing), an unreadable answer a 400. The caps are checked in the
 * same transaction as the insert, so concurrent submits cannot slip past them.
 */
export async function takeQualificationTest(
  db: Db,
  annotatorId: number,
  form: FormData,
  origin: AttemptOrigin,
  test: QualificationTest = loadQualificationTest(),
): Promise<Outcome> {
  if ((await attemptCount(db, annotatorId)) >= MAX_QUALIFICATION_ATTEMPTS)
    return { reply: refusal({ locked: true }), status: 403 };
  const answers: Record<string, string> = {};
  for (const q of test.questions) {
    const value = form.get(q.id);
    if (typeof value === "string") answers[q.id] = value;
  }
  let score: QualificationScore;
  try {
    score = scoreQualification(test, answers);
  } catch (err) {
    if (!(err instanceof QualificationAnswerError)) throw err;
    return { reply: refusal({ total: test.questions.length, error: err.message }), status: 400 };
  }
  return await transact(db, async (db): Promise<Outcome> => {
    if ((await attemptCount(db, annotatorId)) >= MAX_QUALIFICATION_ATTEMPTS)
      return { reply: refusal({ locked: true }), status: 403 };
    if (await networkLimitReached(db, origin))
      return { reply: refusal({ networkLimited: true, error: NETWORK_LIMIT_MESSAGE }), status: 429 };
    await storeAttempt(db, annotatorId, test, answers, score, origin);
    const locked = !score.passed && (await attemptCount(db, annotatorId)) >= MAX_QUALIFICATION_ATTEMPTS;
    return {
      reply: {
        passed: score.passed,
        correct: score.correct,
        total: score.total,
        locked,
        networkLimited: false,
        error: null,
      },
      status: 200,
    };
  });
}

/** The crowd reading test: attempts are recorded; a pass marks the worker qualified for every crowd study. */
import { QualificationAnswerError, qualificationKey, scoreQualification, type QualificationTest } from "../../domain/qualification.ts";
import { writeTransaction, type Db } from "../db.server.ts";
import { qualifiedAt, updateAnnotator } from "../models/annotator.server.ts";
import { countQualificationAttempts, insertQualificationAttempt } from "../models/qualification-attempt.server.ts";
import { loadQualificationTest } from "../templates.server.ts";

export function recordQualificationAttempt(db: Db, annotatorId: number, test: QualificationTest, answers: Record<string, string>) {
  const score = scoreQualification(test, answers);
  writeTransaction(db, () => {
    insertQualificationAttempt(db, { annotatorId, testId: qualificationKey(test), answers, correct: score.correct, total: score.total, passed: score.passed });
    if (score.passed) updateAnnotator(db, annotatorId, { qualifiedAt: new Date().toISOString() });
  });
  return score;
}

/** Attempts a worker may make before the test locks (a fail shows the score, never the key). */
export const MAX_QUALIFICATION_ATTEMPTS = 3;

export function attemptCount(db: Db, annotatorId: number): number {
  return countQualificationAttempts(db, annotatorId);
}

/** Where a worker stands with the test: passed, still to take it, or out of attempts. */
export function qualificationState(db: Db, annotatorId: number): "qualified" | "test" | "locked" {
  if (qualifiedAt(db, annotatorId)) return "qualified";
  return attemptCount(db, annotatorId) >= MAX_QUALIFICATION_ATTEMPTS ? "locked" : "test";
}

/** What the test page shows after a submit (a pass redirects instead). */
export interface QualificationReply {
  passed: boolean;
  correct: number;
  total: number;
  /** No attempts left: the worker's channel decides where they go. */
  locked: boolean;
  error: string | null;
}

/** Scores a submitted test form and records the attempt; out of attempts is a 403, an unreadable answer a 400. */
export function takeQualificationTest(db: Db, annotatorId: number, form: FormData): { reply: QualificationReply; status: 200 | 400 | 403 } {
  if (attemptCount(db, annotatorId) >= MAX_QUALIFICATION_ATTEMPTS) return { reply: { passed: false, correct: 0, total: 0, locked: true, error: null }, status: 403 };
  const test = loadQualificationTest();
  const answers: Record<string, string> = {};
  for (const q of test.questions) {
    const value = form.get(q.id);
    if (typeof value === "string") answers[q.id] = value;
  }
  try {
    const score = recordQualificationAttempt(db, annotatorId, test, answers);
    const locked = !score.passed && attemptCount(db, annotatorId) >= MAX_QUALIFICATION_ATTEMPTS;
    return { reply: { passed: score.passed, correct: score.correct, total: score.total, locked, error: null }, status: 200 };
  } catch (err) {
    if (!(err instanceof QualificationAnswerError)) throw err;
    return { reply: { passed: false, correct: 0, total: test.questions.length, locked: false, error: err.message }, status: 400 };
  }
}

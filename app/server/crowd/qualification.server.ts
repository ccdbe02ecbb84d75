/** The crowd reading test: attempts are recorded; a pass marks the worker qualified for every crowd study. */
import { qualificationKey, scoreQualification, type QualificationTest } from "../../domain/qualification.ts";
import { writeTransaction, type Db } from "../db.server.ts";
import { qualifiedAt, updateAnnotator } from "../models/annotator.server.ts";
import { countQualificationAttempts, insertQualificationAttempt } from "../models/qualification-attempt.server.ts";

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

/** Recording qualification attempts; a pass marks the crowd worker qualified for every crowd study. */
import { eq } from "drizzle-orm";
import * as schema from "../../../db/schema.ts";
import { qualificationKey, scoreQualification, type QualificationTest } from "../../domain/qualification.ts";
import type { Db } from "../db.server.ts";

export function recordQualificationAttempt(db: Db, annotatorId: number, test: QualificationTest, answers: Record<string, string>) {
  const score = scoreQualification(test, answers);
  db.transaction((tx) => {
    tx.insert(schema.qualificationAttempts)
      .values({ annotatorId, testId: qualificationKey(test), answers, correct: score.correct, total: score.total, passed: score.passed })
      .run();
    if (score.passed) tx.update(schema.annotators).set({ qualifiedAt: new Date().toISOString() }).where(eq(schema.annotators.id, annotatorId)).run();
  });
  return score;
}

/** Attempts a worker may make before the test locks (a fail shows the score, never the key). */
export const MAX_QUALIFICATION_ATTEMPTS = 3;

export function attemptCount(db: Db, annotatorId: number): number {
  return db.select({ id: schema.qualificationAttempts.id }).from(schema.qualificationAttempts).where(eq(schema.qualificationAttempts.annotatorId, annotatorId)).all().length;
}

/**
 * The study a crowd service works on; each service checks the pool and status it needs itself (its own words to the
 * worker).
 */
import type { Db } from "../db.server.ts";
import { notFound } from "../http/errors.server.ts";
import { findStudy, type StudyRow } from "../models/study.server.ts";

export async function studyOrNotFound(db: Db, studyId: number): Promise<StudyRow> {
  const study = await findStudy(db, studyId);
  if (!study) throw notFound(`Study ${studyId}`);
  return study;
}

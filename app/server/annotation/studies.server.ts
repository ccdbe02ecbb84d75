/**
 * Studies: reading, listing, opening and closing them. Creating one is per task type (each type
 * builds its own items, with gold items mixed in at the study's rate): task-types/<id>.server.ts.
 */
import type { Db } from "../db.server.ts";
import { notFound } from "../http/errors.server.ts";
import { findStudy, itemCounts, listStudyRows, updateStudyStatus, type StudyRow } from "../models/study.server.ts";
import type { Pool } from "../../domain/study-config.ts";

export { createAbStudy } from "../../task-types/ab-reactiveness/handlers.server.ts";
export { createConsensusStudy } from "../../task-types/consensus-snippet/handlers.server.ts";

export type { StudyRow };

export async function getStudy(db: Db, studyId: number): Promise<StudyRow> {
  const study = await findStudy(db, studyId);
  if (!study) throw notFound(`Study ${studyId}`);
  return study;
}

export async function listStudies(db: Db, filter: { pool?: Pool } = {}) {
  const counts = await itemCounts(db);
  return (await listStudyRows(db, filter)).map((s) => ({ ...s, items: counts.get(s.id) ?? 0 }));
}

export async function setStudyStatus(db: Db, studyId: number, status: "open" | "closed"): Promise<void> {
  await getStudy(db, studyId);
  await updateStudyStatus(db, studyId, status);
}

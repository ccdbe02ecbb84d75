/**
 * Who may work on or look at a study: experts in expert studies, qualified crowd workers in crowd studies, admins
 * everywhere.
 */
import type { SessionUser } from "../auth/session.server.ts";
import type { Db } from "../db.server.ts";
import { forbidden } from "../http/errors.server.ts";
import { getStudy, type StudyRow } from "./studies.server.ts";

export async function studyForWorker(db: Db, studyId: number, user: SessionUser): Promise<StudyRow> {
  const study = await getStudy(db, studyId);
  if (user.role === "admin")
    throw forbidden("Admins review studies on the dashboard; annotation tasks are for annotators");
  if (study.pool !== user.role)
    throw forbidden(`This study is for the ${study.pool} pool, and your account is in the ${user.role} pool`);
  // Crowd workers are paid per study: they work only on the studies whose link brought them here.
  if (user.role === "crowd" && !user.crowdStudies.includes(study.id))
    throw forbidden("Please open this study through the link you were given");
  return study;
}

export function needsQualification(user: SessionUser): boolean {
  return user.role === "crowd" && !user.qualifiedAt;
}

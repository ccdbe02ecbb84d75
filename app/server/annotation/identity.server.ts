/**
 * Whose labels count as soon as they are submitted: accounts with a password, and crowd workers whose channel verified
 * them on entry.
 */
import type { Db } from "../db.server.ts";
import { CONFIRMED_AT_ENTRY, isWorkerChannel } from "../crowd/workers.server.ts";
import { findAnnotator } from "../models/annotator.server.ts";

export async function identityConfirmedOnSubmit(db: Db, annotatorId: number): Promise<boolean> {
  const annotator = await findAnnotator(db, annotatorId);
  if (!annotator) return false;
  if (annotator.role !== "crowd") return true;
  return isWorkerChannel(annotator.channel) && CONFIRMED_AT_ENTRY[annotator.channel];
}

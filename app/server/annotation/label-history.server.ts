/** A label with all its revisions; only its author and admins may read it. */
import type { Db } from "../db.server.ts";
import { forbidden, notFound } from "../http/errors.server.ts";
import { findLabel, labelRevisionsOf } from "../models/label.server.ts";

export function labelHistory(db: Db, labelId: number, viewer: { id: number; role: string }) {
  const label = findLabel(db, labelId);
  if (!label) throw notFound(`Label ${labelId}`);
  if (viewer.role !== "admin" && viewer.id !== label.annotatorId) throw forbidden("This label belongs to another annotator");
  return { ...label, revisions: labelRevisionsOf(db, labelId) };
}

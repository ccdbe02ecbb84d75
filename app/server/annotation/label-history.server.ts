/** A label with all its revisions, in words; only its author and admins may read it. */
import { historyRevisions, type LabelHistoryView } from "../../domain/label-review/history.ts";
import type { Db } from "../db.server.ts";
import { forbidden, notFound } from "../http/errors.server.ts";
import { findAnnotator } from "../models/annotator.server.ts";
import { findLabel, labelRevisionsOf } from "../models/label.server.ts";
import { getStudy } from "./studies.server.ts";
import { itemWordsOfStudy } from "./label-context.server.ts";

export async function labelHistory(
  db: Db,
  labelId: number,
  viewer: { id: number; role: string },
): Promise<LabelHistoryView> {
  const label = await findLabel(db, labelId);
  if (!label) throw notFound(`Label ${labelId}`);
  if (viewer.role !== "admin" && viewer.id !== label.annotatorId)
    throw forbidden("This label belongs to another annotator");
  const own = viewer.id === label.annotatorId;
  const author = own ? "You" : ((await findAnnotator(db, label.annotatorId))?.displayName ?? "Unknown annotator");
  const item = (await itemWordsOfStudy(db, label.studyId, new Set([label.itemId]))).get(label.itemId)!;
  const stored = (await labelRevisionsOf(db, labelId)).map(({ payload, ...r }) => ({
    ...r,
    summary: item.summarise(payload),
  }));
  return {
    labelId,
    studyId: label.studyId,
    studyName: (await getStudy(db, label.studyId)).name,
    itemId: label.itemId,
    scenario: item.scenario,
    place: item.place,
    author,
    own,
    revisions: historyRevisions(stored, author),
  };
}

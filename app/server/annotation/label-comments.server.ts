/** The study dashboard's list of comments annotators stored with their labels (the latest revision's). */
import type { Db } from "../db.server.ts";
import { latestLabelComments } from "../models/label.server.ts";

/** The dashboard shows the newest ones; the labels CSV/JSONL hold them all. */
const SHOWN = 200;

export async function studyLabelComments(db: Db, studyId: number) {
  const rows = await latestLabelComments(db, studyId, SHOWN + 1);
  return { rows: rows.slice(0, SHOWN), more: rows.length > SHOWN };
}

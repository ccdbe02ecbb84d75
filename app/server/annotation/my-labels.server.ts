/** My labels: an annotator's own labels in a study, in words, newest first, filtered as the query asks. */
import {
  filterMyLabels,
  scenarioChoices,
  type MyLabelRow,
  type MyLabelsFilter,
} from "../../domain/label-review/my-labels.ts";
import type { SessionUser } from "../auth/session.server.ts";
import type { Db } from "../db.server.ts";
import { ownLabels } from "../models/label.server.ts";
import { studyForWorker } from "./access.server.ts";
import { itemWordsOfStudy } from "./label-context.server.ts";

export async function myLabels(db: Db, studyId: number, user: SessionUser, filter: MyLabelsFilter) {
  const study = await studyForWorker(db, studyId, user);
  const labels = await ownLabels(db, studyId, user.id);
  const words = await itemWordsOfStudy(db, studyId, new Set(labels.map((l) => l.itemId)));
  const rows: MyLabelRow[] = labels.map((label) => {
    const item = words.get(label.itemId)!;
    return {
      labelId: label.labelId,
      itemId: label.itemId,
      scenario: item.scenario,
      place: item.place,
      summary: item.summarise(label.payload),
      updatedAt: label.updatedAt,
      revisions: label.revisions,
    };
  });
  return {
    study: { id: study.id, name: study.name, open: study.status === "open" },
    filter,
    scenarios: scenarioChoices(rows),
    total: rows.length,
    rows: filterMyLabels(rows, filter),
  };
}

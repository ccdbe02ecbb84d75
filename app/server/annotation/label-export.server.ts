/**
 * Label exports for analysis: CSV (one row per consensus topic or per A/B label, latest revision)
 * and JSONL (one record per label with every revision). Researchers see ids and levels here;
 * annotators never reach these routes.
 */
import { toCsv } from "../../domain/csv.ts";
import type { Db } from "../db.server.ts";
import { labelRevisionsOf } from "../models/label.server.ts";
import { loadItems, loadLatestLabels } from "./dashboard-data.server.ts";
import { getStudy } from "./studies.server.ts";
import { TASK_SERVERS } from "../../task-types/registry.server.ts";

export async function labelsCsv(db: Db, studyId: number): Promise<string> {
  const study = await getStudy(db, studyId);
  const items = new Map((await loadItems(db, [studyId])).map((i) => [i.itemId, i]));
  const labels = await loadLatestLabels(db, [studyId], "stored");
  const common = (l: (typeof labels)[number]) => {
    const item = items.get(l.itemId)!;
    return [
      study.id,
      l.itemId,
      item.position,
      item.isGold ? 1 : 0,
      l.annotatorId,
      l.pool,
      l.status,
      l.revision,
      l.secondsOnTask,
      l.submittedAt,
      l.comment ?? "",
    ];
  };
  // status: counted | pending | surplus (docs/formats.md); analyses should keep counted rows unless they mean
  // otherwise.
  const commonHeader = [
    "study_id",
    "item_id",
    "item_position",
    "is_gold",
    "annotator_id",
    "pool",
    "status",
    "revision",
    "seconds_on_task",
    "submitted_at",
    "comment",
  ];
  // The type's own columns follow the common ones (consensus: a row per topic; A/B: a row per label).
  const { csv } = TASK_SERVERS[study.type];
  const rows = labels.flatMap((l) => csv.rows(l, items.get(l.itemId)!).map((own) => [...common(l), ...own]));
  return toCsv([...commonHeader, ...csv.header], rows);
}

export async function labelsJsonl(db: Db, studyId: number): Promise<string> {
  await getStudy(db, studyId);
  const items = new Map((await loadItems(db, [studyId])).map((i) => [i.itemId, i]));
  const labels = await loadLatestLabels(db, [studyId], "stored");
  return (
    await Promise.all(
      labels.map(async (l) => {
        const item = items.get(l.itemId)!;
        const history = (await labelRevisionsOf(db, l.labelId)).map((r) => ({
          revision: r.revision,
          payload: r.payload,
          seconds_on_task: r.secondsOnTask,
          comment: r.comment,
          created_at: r.createdAt,
        }));
        return JSON.stringify({
          study_id: studyId,
          item_id: l.itemId,
          is_gold: item.isGold,
          ...TASK_SERVERS[item.kind].jsonItemFields(item),
          annotator_id: l.annotatorId,
          pool: l.pool,
          status: l.status,
          label: l.payload,
          comment: l.comment,
          revisions: history,
        });
      }),
    )
  )
    .join("\n")
    .concat(labels.length ? "\n" : "");
}

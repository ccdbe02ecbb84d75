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

export function labelsCsv(db: Db, studyId: number): string {
  const study = getStudy(db, studyId);
  const items = new Map(loadItems(db, [studyId]).map((i) => [i.itemId, i]));
  const labels = loadLatestLabels(db, [studyId]);
  const common = (l: (typeof labels)[number]) => {
    const item = items.get(l.itemId)!;
    return [study.id, l.itemId, item.position, item.isGold ? 1 : 0, l.annotatorId, l.pool, l.revision, l.secondsOnTask, l.submittedAt];
  };
  const commonHeader = ["study_id", "item_id", "item_position", "is_gold", "annotator_id", "pool", "revision", "seconds_on_task", "submitted_at"];
  if (study.type === "ab-reactiveness") {
    const rows = labels.map((l) => {
      const item = items.get(l.itemId)!;
      return [...common(l), item.pairId, item.backbone, item.targetParty, item.levelA, item.levelB, l.payload.kind === "ab-reactiveness" ? l.payload.choice : ""];
    });
    return toCsv([...commonHeader, "pair_id", "simulator_backbone", "target_party", "level_a", "level_b", "choice"], rows);
  }
  const rows = labels.flatMap((l) => {
    const item = items.get(l.itemId)!;
    if (l.payload.kind !== "consensus-snippet") return [];
    return Object.entries(l.payload.topics)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([topicId, t]) => [...common(l), item.runId, item.snippetPosition, item.startTurn, item.endTurn, topicId, t.score, t.carriedForward ? 1 : 0, JSON.stringify(t.positions)]);
  });
  return toCsv([...commonHeader, "run_id", "snippet_position", "start_turn", "end_turn", "topic_id", "score", "carried_forward", "positions"], rows);
}

export function labelsJsonl(db: Db, studyId: number): string {
  getStudy(db, studyId);
  const items = new Map(loadItems(db, [studyId]).map((i) => [i.itemId, i]));
  const labels = loadLatestLabels(db, [studyId]);
  return labels
    .map((l) => {
      const item = items.get(l.itemId)!;
      const history = labelRevisionsOf(db, l.labelId).map((r) => ({
        revision: r.revision,
        payload: r.payload,
        seconds_on_task: r.secondsOnTask,
        created_at: r.createdAt,
      }));
      return JSON.stringify({
        study_id: studyId,
        item_id: l.itemId,
        is_gold: item.isGold,
        ...(item.kind === "consensus-snippet"
          ? { run_id: item.runId, snippet_position: item.snippetPosition, start_turn: item.startTurn, end_turn: item.endTurn }
          : { pair_id: item.pairId, simulator_backbone: item.backbone, target_party: item.targetParty, level_a: item.levelA, level_b: item.levelB }),
        annotator_id: l.annotatorId,
        pool: l.pool,
        label: l.payload,
        revisions: history,
      });
    })
    .join("\n")
    .concat(labels.length ? "\n" : "");
}

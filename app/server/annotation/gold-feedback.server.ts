/**
 * Gold feedback (a study setting, off by default): after an annotator submits a gold item, the next page says whether
 * the answer matched the gold answer and what was expected, in the words of the item's task type (its gold rules'
 * `explain`). The submit's redirect names the gold item (`?gold=<item>`); the page recomputes the feedback from the
 * annotator's own stored label, so nothing is revealed on a study without the setting, for an item that is not gold,
 * or for an item the annotator has not answered.
 */
import { parseStudyConfig } from "../../domain/study-config.ts";
import { DEFAULT_GOLD_TOLERANCE } from "../../domain/validation/gold.ts";
import { taskType } from "../../task-types/registry.ts";
import type { Db } from "../db.server.ts";
import { latestOwnLabel } from "../models/label.server.ts";
import { loadItems } from "./dashboard-data.server.ts";
import { itemWordsOfStudy } from "./label-context.server.ts";
import { getStudy } from "./studies.server.ts";
import { loadItem } from "./task-view.server.ts";

export interface GoldFeedback {
  /** The gold item the feedback is about. */
  itemId: number;
  matched: boolean;
  /** What was expected and what the annotator gave, one sentence each. */
  lines: string[];
}

/** The query parameter naming the gold item just answered. */
const PARAM = "gold";

const feedbackOn = async (db: Db, studyId: number) =>
  parseStudyConfig((await getStudy(db, studyId)).config).goldFeedback;

/** Whether a label just stored on the item earns feedback: the study has the setting and the item is gold. */
export async function feedbackDue(db: Db, studyId: number, itemId: number): Promise<boolean> {
  return (await feedbackOn(db, studyId)) && (await loadItem(db, studyId, itemId)).isGold;
}

/** The next step's address, naming the gold item when it is the study's next task page. */
export function withFeedbackFor(path: string, studyId: number, goldItemId: number): string {
  if (!path.startsWith(`/annotate/${studyId}/items/`)) return path;
  return `${path}${path.includes("?") ? "&" : "?"}${PARAM}=${goldItemId}`;
}

/** The feedback a task page's address asks for, or null when there is none to give (see the file's comment). */
export async function goldFeedbackOf(
  db: Db,
  studyId: number,
  url: URL,
  annotatorId: number,
): Promise<GoldFeedback | null> {
  const asked = Number(url.searchParams.get(PARAM));
  if (!Number.isSafeInteger(asked) || asked <= 0 || !(await feedbackOn(db, studyId))) return null;
  const source = (await loadItems(db, [studyId])).find((i) => i.itemId === asked);
  if (!source?.isGold) return null;
  const label = await latestOwnLabel(db, asked, annotatorId);
  if (!label || label.payload.kind !== source.kind) return null;
  const rules = taskType(source.kind as string).gold;
  const item = rules.fromItem(source);
  const words = (await itemWordsOfStudy(db, studyId, new Set([asked]))).get(asked);
  const scenario = words?.body ?? { background: "", topics: [], parties: [] };
  return {
    itemId: asked,
    matched: rules.passes(label.payload, item, DEFAULT_GOLD_TOLERANCE),
    lines: rules.explain(label.payload, item, DEFAULT_GOLD_TOLERANCE, scenario, words?.targetName ?? ""),
  };
}

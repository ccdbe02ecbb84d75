/**
 * Where a consensus study's gold snippets come from: another consensus study's snippets every
 * expert labelled, the reference being the rounded mean per topic. Shared by the creation of a
 * study and by an active study's draws, which mix gold in as runs arrive.
 */
import { meanOf } from "../../domain/metrics/alignment-values.ts";
import { loadItems, loadLatestLabels } from "../../server/annotation/dashboard-data.server.ts";
import type { NewItem } from "../../server/annotation/new-study.server.ts";
import type { Db } from "../../server/db.server.ts";
import type { StudyRow } from "../../server/models/study.server.ts";
import { ofKind } from "../resume.ts";
import { CONSENSUS_SNIPPET, type ConsensusLabel } from "./label.ts";

/** Gold candidates: snippets fully labelled in another consensus study; reference = rounded expert mean per topic. */
export async function goldSnippets(
  db: Db,
  source: StudyRow,
  exclude: Set<number>,
): Promise<NewItem<typeof CONSENSUS_SNIPPET>[]> {
  const fromStudyId = source.id;
  // The source study's items and latest labels, as the dashboard reads them.
  const items = new Map((await loadItems(db, [fromStudyId])).map((i) => [i.itemId, i]));
  const scoresByItem = new Map<number, Record<string, number[]>>();
  for (const label of await loadLatestLabels(db, [fromStudyId], "statistics")) {
    const item = items.get(label.itemId);
    const payload = ofKind<ConsensusLabel>(CONSENSUS_SNIPPET, label.payload);
    if (!item || item.isGold || item.snippetId === null || !payload) continue;
    const scores = scoresByItem.get(label.itemId) ?? {};
    for (const [topicId, t] of Object.entries(payload.topics)) (scores[topicId] ??= []).push(t.score);
    scoresByItem.set(label.itemId, scores);
  }
  const gold: NewItem<typeof CONSENSUS_SNIPPET>[] = [];
  for (const [itemId, scores] of scoresByItem) {
    const item = items.get(itemId)!;
    if (exclude.has(item.snippetId!) || !Object.values(scores).every((s) => s.length >= source.labelsPerItem)) continue;
    const topics = Object.fromEntries(Object.entries(scores).map(([k, s]) => [k, Math.round(meanOf(s) as number)]));
    gold.push({
      kind: CONSENSUS_SNIPPET,
      snippetId: item.snippetId!,
      runId: item.runId!,
      isGold: true,
      gold: { topics },
    });
  }
  return gold;
}

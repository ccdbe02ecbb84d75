/**
 * An active study's current design (issue 33, docs/active-labelling.md), shared by its dashboard's
 * stopping rule and the calibrated-estimates service: the study's human values per run, which runs
 * are completely labelled, and from those each mediator stratum's prefix and π.
 */
import { stratumDesigns } from "../../domain/estimation/active-design.ts";
import type { ActiveDesign } from "../../domain/estimation/calibrated.ts";
import { RUN_QUANTITIES, runQuantities, type RunValues } from "../../domain/estimation/run-quantities.ts";
import { parseStudyConfig } from "../../domain/study-config.ts";
import type { AlignmentItem } from "../../domain/validation/alignment-table.ts";
import type { ConsensusLabel } from "../../task-types/consensus-snippet/label.ts";
import {
  alignmentItemOf,
  loadItems,
  loadLatestLabels,
  topicsByRun,
  type ItemRecord,
  type LabelRecord,
} from "../annotation/dashboard-data.server.ts";
import type { Db } from "../db.server.ts";
import { drawsOf } from "../models/study-draw.server.ts";
import { findStudy, type StudyRow } from "../models/study.server.ts";

/** The labelled study's human values per run: each snippet's mean score per topic over the counted labels. */
function humanValues(items: readonly AlignmentItem[], labels: readonly LabelRecord[]): Map<string, RunValues> {
  const scores = new Map<string, number[]>();
  for (const l of labels) {
    for (const [topic, t] of Object.entries((l.payload as ConsensusLabel).topics ?? {})) {
      const key = `${l.itemId}\u0000${topic}`;
      const list = scores.get(key) ?? [];
      list.push(t.score);
      scores.set(key, list);
    }
  }
  return runQuantities(items, (item, topic) => {
    const list = scores.get(`${item.itemId}\u0000${topic}`);
    return list?.length ? list.reduce((s, v) => s + v, 0) / list.length : null;
  });
}

/**
 * Runs whose labels are complete: every regular item of the run has k counted labels and both
 * quantities are defined.
 */
function completeRuns(
  items: readonly AlignmentItem[],
  labels: readonly LabelRecord[],
  k: number,
  human: Map<string, RunValues>,
): Set<string> {
  const perItem = new Map<number, Set<string>>();
  for (const l of labels) perItem.set(l.itemId, (perItem.get(l.itemId) ?? new Set()).add(l.annotatorId));
  const short = new Set(
    items.filter((i) => !i.isGold && (perItem.get(i.itemId as number)?.size ?? 0) < k).map((i) => i.runId),
  );
  return new Set(
    [...human]
      .filter(([runId, v]) => !short.has(runId) && RUN_QUANTITIES.every((q) => v[q] !== null))
      .map(([runId]) => runId),
  );
}

/** A study's human values per run and its completely labelled runs, from its items and counted labels. */
export async function studyRunValues(
  db: Db,
  study: StudyRow,
  items: readonly ItemRecord[],
  labels: readonly LabelRecord[],
): Promise<{ human: Map<string, RunValues>; complete: Set<string> }> {
  const runIds = [...new Set(items.map((i) => i.runId).filter((r): r is string => r !== null))];
  const topics = await topicsByRun(db, runIds);
  const own: AlignmentItem[] = items
    .filter((i) => i.runId !== null && i.snippetPosition !== null)
    .map((i) => alignmentItemOf(i, topics));
  const human = humanValues(own, labels);
  return { human, complete: completeRuns(own, labels, study.labelsPerItem, human) };
}

/**
 * The first active study among `studyIds` as a design for the calibrated estimates: π at each
 * stratum's current prefix for every run of its population, and which runs are in the prefix (only
 * their human values may enter). Undefined when none of the studies is active.
 */
export async function activeDesignOf(db: Db, studyIds: readonly number[]): Promise<ActiveDesign | undefined> {
  const study = (await Promise.all(studyIds.map(async (id) => await findStudy(db, id)))).find(
    (s): s is StudyRow => s !== undefined && parseStudyConfig(s.config).allocation === "active",
  );
  if (!study) return undefined;
  const items = await loadItems(db, [study.id]);
  const { complete } = await studyRunValues(db, study, items, await loadLatestLabels(db, [study.id], "statistics"));
  const units = new Map(
    stratumDesigns(await drawsOf(db, study.id), complete).flatMap((d) => d.units.map((u) => [u.runId, u])),
  );
  return {
    inclusionProbability: (runId) => units.get(runId)?.pi,
    sampled: (runId) => units.get(runId)?.inPrefix === true,
  };
}

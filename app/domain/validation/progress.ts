/**
 * Study progress: how many items have their k labels, how many are under way, how many are
 * untouched; and per annotator, how much they did and how long an item took them.
 */
import { checkLabelRows, compareStrings, indexItems, median } from "./rows.ts";
import type { ItemId } from "./types.ts";

export interface ProgressItem {
  itemId: ItemId;
  isGold?: boolean;
}

export interface ProgressLabel {
  itemId: ItemId;
  annotatorId: string;
  /** The label's total seconds on task (summed over its revisions); null when not measured. */
  secondsOnTask: number | null;
}

/** A lease that is neither submitted nor expired. */
export interface ActiveLease {
  itemId: ItemId;
  annotatorId: string;
}

export interface AnnotatorProgress {
  annotatorId: string;
  /** Submitted labels, gold items included. */
  labels: number;
  goldLabels: number;
  activeLeases: number;
  /** Median of the labels' seconds on task; null when none was measured. */
  medianSeconds: number | null;
  timedLabels: number;
}

export interface StudyProgress {
  labelsPerItem: number;
  items: number;
  /** Items with at least k submitted labels. */
  complete: number;
  /** Items with some labels or an active lease, but fewer than k labels. */
  inProgress: number;
  /** Items with neither. */
  open: number;
  labels: number;
  /** Everyone with a label or an active lease, sorted by id. */
  annotators: AnnotatorProgress[];
}

export function studyProgress(
  items: readonly ProgressItem[],
  labels: readonly ProgressLabel[],
  leases: readonly ActiveLease[],
  labelsPerItem: number,
): StudyProgress {
  if (!Number.isInteger(labelsPerItem) || labelsPerItem < 1) {
    throw new RangeError(`labels per item must be a whole number of at least 1, got ${labelsPerItem}`);
  }
  const byId = indexItems(items, "items");
  checkLabelRows(labels, byId, "labels");
  leases.forEach((lease, i) => {
    if (!byId.has(lease.itemId))
      throw new RangeError(`leases[${i}]: item ${String(lease.itemId)} is not among the study's items`);
  });

  const labelCount = new Map<ItemId, number>();
  const leased = new Set<ItemId>();
  const people = new Map<string, { labels: number; goldLabels: number; activeLeases: number; seconds: number[] }>();
  const person = (id: string) => {
    const p = people.get(id) ?? { labels: 0, goldLabels: 0, activeLeases: 0, seconds: [] };
    people.set(id, p);
    return p;
  };

  labels.forEach((label, i) => {
    const s = label.secondsOnTask;
    if (s !== null && (!Number.isFinite(s) || s < 0)) {
      throw new RangeError(
        `labels[${i}] (annotator ${label.annotatorId}, item ${String(label.itemId)}): secondsOnTask must be ≥ 0 or null, got ${s}`,
      );
    }
    labelCount.set(label.itemId, (labelCount.get(label.itemId) ?? 0) + 1);
    const p = person(label.annotatorId);
    p.labels++;
    if (byId.get(label.itemId)?.isGold) p.goldLabels++;
    if (s !== null) p.seconds.push(s);
  });
  for (const lease of leases) {
    leased.add(lease.itemId);
    person(lease.annotatorId).activeLeases++;
  }

  let complete = 0;
  let inProgress = 0;
  for (const id of byId.keys()) {
    const n = labelCount.get(id) ?? 0;
    if (n >= labelsPerItem) complete++;
    else if (n > 0 || leased.has(id)) inProgress++;
  }

  return {
    labelsPerItem,
    items: byId.size,
    complete,
    inProgress,
    open: byId.size - complete - inProgress,
    labels: labels.length,
    annotators: [...people.entries()]
      .sort(([a], [b]) => compareStrings(a, b))
      .map(([annotatorId, p]) => ({
        annotatorId,
        labels: p.labels,
        goldLabels: p.goldLabels,
        activeLeases: p.activeLeases,
        medianSeconds: median(p.seconds),
        timedLabels: p.seconds.length,
      })),
  };
}

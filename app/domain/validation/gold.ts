/**
 * Gold (attention) items: per-annotator accuracy and flagging. Whether a label on a gold item
 * passes is its task type's rule (the `gold` of its definition, in its folder's gold.ts): a
 * consensus item checks the scores against the reference within ±tolerance (default 1), an A/B
 * item checks the choice names the side with the higher level.
 */
import {
  TASK_TYPE_IDS,
  taskType,
  type GoldItemOf,
  type LabelPayload,
  type TaskTypeId,
} from "../../task-types/registry.ts";
import { compareStrings, indexItems, labelName } from "./rows.ts";
import type { ItemId } from "./types.ts";

/** A study's gold items by task type, each in its type's shape (goldFor builds it from the items). */
export type GoldSet = { readonly [Id in TaskTypeId]?: readonly GoldItemOf<Id>[] };

export interface GoldLabel {
  itemId: ItemId;
  annotatorId: string;
  payload: LabelPayload;
}

export interface GoldCheck {
  itemId: ItemId;
  annotatorId: string;
  passed: boolean;
}

export interface GoldAccuracy {
  annotatorId: string;
  attempted: number;
  passed: number;
  accuracy: number;
}

export interface GoldOptions {
  /** Largest |score − reference| that still passes (default 1). */
  tolerance?: number;
}

export const DEFAULT_GOLD_TOLERANCE = 1;
export const DEFAULT_GOLD_THRESHOLD = 0.7;
export const DEFAULT_GOLD_MIN_ATTEMPTED = 2;

/** One pass/fail per label on a gold item; labels on other items are ignored. */
export function goldChecks(gold: GoldSet, labels: readonly GoldLabel[], options: GoldOptions = {}): GoldCheck[] {
  const tolerance = options.tolerance ?? DEFAULT_GOLD_TOLERANCE;
  if (!Number.isFinite(tolerance) || tolerance < 0)
    throw new RangeError(`gold tolerance must be a number ≥ 0, got ${tolerance}`);
  const byItem = new Map<ItemId, { kind: TaskTypeId; item: GoldItemOf<TaskTypeId> }>();
  for (const kind of TASK_TYPE_IDS) {
    for (const [itemId, item] of indexItems<GoldItemOf<TaskTypeId>>(gold[kind] ?? [], `gold.${kind}`)) {
      const other = byItem.get(itemId);
      if (other)
        throw new RangeError(
          `gold item ${String(itemId)} is listed both as ${taskType(other.kind).gold.itemName} and as ${taskType(kind).gold.itemName}`,
        );
      byItem.set(itemId, { kind, item });
    }
  }
  for (const { kind, item } of byItem.values()) taskType(kind as string).gold.checkItem?.(item);

  const checks: GoldCheck[] = [];
  labels.forEach((label, i) => {
    const entry = byItem.get(label.itemId);
    if (!entry) return;
    const rules = taskType(entry.kind as string).gold;
    if (label.payload.kind !== entry.kind)
      throw new RangeError(`${labelName(i, label)}: ${rules.itemName} has a "${label.payload.kind}" label`);
    checks.push({
      itemId: label.itemId,
      annotatorId: label.annotatorId,
      passed: rules.passes(label.payload, entry.item, tolerance),
    });
  });
  return checks;
}

/** Gold accuracy per annotator who labelled at least one gold item, sorted by annotator id. */
export function goldAccuracy(gold: GoldSet, labels: readonly GoldLabel[], options: GoldOptions = {}): GoldAccuracy[] {
  const byAnnotator = new Map<string, { attempted: number; passed: number }>();
  for (const check of goldChecks(gold, labels, options)) {
    const acc = byAnnotator.get(check.annotatorId) ?? { attempted: 0, passed: 0 };
    acc.attempted++;
    if (check.passed) acc.passed++;
    byAnnotator.set(check.annotatorId, acc);
  }
  return [...byAnnotator.entries()]
    .sort(([a], [b]) => compareStrings(a, b))
    .map(([annotatorId, { attempted, passed }]) => ({ annotatorId, attempted, passed, accuracy: passed / attempted }));
}

/**
 * Annotators to flag: accuracy strictly below `threshold` on at least `minAttempted` gold items
 * (fewer attempts say too little to flag anyone). Sorted ids.
 */
export function flagAnnotators(
  accuracies: readonly GoldAccuracy[],
  threshold = DEFAULT_GOLD_THRESHOLD,
  minAttempted = DEFAULT_GOLD_MIN_ATTEMPTED,
): string[] {
  if (!Number.isFinite(threshold) || threshold < 0 || threshold > 1)
    throw new RangeError(`gold threshold must be between 0 and 1, got ${threshold}`);
  if (!Number.isInteger(minAttempted) || minAttempted < 1)
    throw new RangeError(`minAttempted must be a whole number ≥ 1, got ${minAttempted}`);
  return accuracies
    .filter((a) => a.attempted >= minAttempted && a.accuracy < threshold)
    .map((a) => a.annotatorId)
    .sort(compareStrings);
}

/** Checks shared by the validation modules: unique item ids, labels that point at known items. */
import type { ItemId } from "./types.ts";

/** Items by id; a repeated id is an error (two rows would silently merge otherwise). */
export function indexItems<T extends { itemId: ItemId }>(items: readonly T[], what: string): Map<ItemId, T> {
  const byId = new Map<ItemId, T>();
  items.forEach((item, i) => {
    if (byId.has(item.itemId)) throw new RangeError(`${what}[${i}]: item id ${String(item.itemId)} appears twice`);
    byId.set(item.itemId, item);
  });
  return byId;
}

/**
 * Checks every label names a known item and that no annotator labels an item twice (the caller
 * passes one row per label: its latest revision).
 */
export function checkLabelRows(
  labels: readonly { itemId: ItemId; annotatorId: string }[],
  items: ReadonlyMap<ItemId, unknown>,
  what: string,
): void {
  const seen = new Set<string>();
  labels.forEach((label, i) => {
    if (!items.has(label.itemId)) {
      throw new RangeError(`${what}[${i}]: item ${String(label.itemId)} is not among the study's items`);
    }
    const key = `${typeof label.itemId}:${String(label.itemId)}\u0000${label.annotatorId}`;
    if (seen.has(key)) {
      throw new RangeError(
        `${what}[${i}]: annotator ${label.annotatorId} has a second label on item ${String(label.itemId)}; pass only the latest revision`,
      );
    }
    seen.add(key);
  });
}

/** Ascending string order that does not depend on the locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function compareIds(a: ItemId, b: ItemId): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return compareStrings(String(a), String(b));
}

/** Median, or null for an empty list. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function assertSeed(seed: number): void {
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
}

/**
 * Visits each topic score of a consensus label, checking that the item lists the topic and that
 * the score is a whole number 1–5. `where` names the label in errors.
 */
export function forEachScore(
  payload: { topics: Record<string, { score: number }> },
  topicIds: ReadonlySet<string> | ReadonlyMap<string, unknown>,
  where: string,
  visit: (topicId: string, score: number) => void,
): void {
  for (const [topicId, entry] of Object.entries(payload.topics)) {
    const at = `${where} topic "${topicId}"`;
    if (!topicIds.has(topicId)) throw new RangeError(`${at}: the item does not list this topic`);
    if (!Number.isInteger(entry.score) || entry.score < 1 || entry.score > 5) {
      throw new RangeError(`${at}: score must be a whole number 1–5, got ${entry.score}`);
    }
    visit(topicId, entry.score);
  }
}

/** How a label row is named in error messages. */
export function labelName(i: number, label: { annotatorId: string; itemId: ItemId }): string {
  return `labels[${i}] (annotator ${label.annotatorId}, item ${String(label.itemId)})`;
}

export function checkPools(labels: readonly { pool: string }[], what: string): void {
  labels.forEach((label, i) => {
    if (label.pool !== "expert" && label.pool !== "crowd") {
      throw new RangeError(`${what}[${i}].pool must be "expert" or "crowd", got ${JSON.stringify(label.pool)}`);
    }
  });
}

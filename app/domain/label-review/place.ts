/**
 * Where an item sits, in words an annotator understands: "Trajectory 2 · snippet 3 of 6" for a
 * consensus snippet, "Pair 4 of 20 · about Bob" for an A/B pair, each type placing its own items
 * (its folder's review.ts). Nothing about how the item was made (conditions, levels, backbones)
 * goes into it.
 */
import { TASK_TYPE_IDS, taskType } from "../../task-types/registry.ts";
import type { PlaceItem } from "./words.ts";

export type { PlaceItem };

/** The place of every item of a study; `snippetCounts` gives each trajectory's number of snippets. */
export function itemPlaces(
  items: readonly PlaceItem[],
  snippetCounts: ReadonlyMap<string, number>,
): Map<number, string> {
  const byType = new Map<number, string>();
  for (const id of TASK_TYPE_IDS) {
    const ofType = items.filter((item) => item.kind === id);
    for (const [itemId, place] of taskType(id).review.places(ofType, snippetCounts)) byType.set(itemId, place);
  }
  // In study order, as the items came.
  return new Map(
    items.filter((item) => byType.has(item.itemId)).map((item) => [item.itemId, byType.get(item.itemId) as string]),
  );
}

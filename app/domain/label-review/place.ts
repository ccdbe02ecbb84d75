/**
 * Where an item sits, in words an annotator understands: "Trajectory 2 · snippet 3 of 6" for a
 * consensus snippet, "Pair 4 of 20 · about Bob" for an A/B pair. Nothing about how the item was
 * made (conditions, levels, backbones) goes into it.
 */
import { AB_REACTIVENESS, CONSENSUS_SNIPPET, type TaskTypeId } from "../tasks/ids.ts";

/** One study item as the place needs it, in study order. */
export interface PlaceItem {
  itemId: number;
  kind: TaskTypeId;
  /** Consensus items: the trajectory (run) and the snippet's position in it. */
  runId: string | null;
  snippetPosition: number | null;
  /** A/B items: the name of the party whose reactions are compared. */
  targetName: string | null;
}

/**
 * The place of every item of a study. Trajectories are numbered in the order the study first
 * shows them; `snippetCounts` gives each trajectory's number of snippets.
 */
export function itemPlaces(items: readonly PlaceItem[], snippetCounts: ReadonlyMap<string, number>): Map<number, string> {
  const trajectories = new Map<string, number>();
  const pairCount = items.filter((item) => item.kind === AB_REACTIVENESS).length;
  let pairNumber = 0;
  const places = new Map<number, string>();
  for (const item of items) {
    if (item.kind === CONSENSUS_SNIPPET && item.runId !== null) {
      if (!trajectories.has(item.runId)) trajectories.set(item.runId, trajectories.size + 1);
      const of = snippetCounts.get(item.runId);
      places.set(item.itemId, `Trajectory ${trajectories.get(item.runId)} · snippet ${item.snippetPosition ?? "?"}${of ? ` of ${of}` : ""}`);
    } else if (item.kind === AB_REACTIVENESS) {
      const about = item.targetName ? ` · about ${item.targetName}` : "";
      pairNumber += 1;
      places.set(item.itemId, `Pair ${pairNumber} of ${pairCount}${about}`);
    }
  }
  return places;
}

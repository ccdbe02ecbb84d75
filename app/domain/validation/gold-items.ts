/** The gold items of a study, split by task type into the shapes goldAccuracy expects. */
import { AB_REACTIVENESS, CONSENSUS_SNIPPET, type TaskTypeId } from "../tasks/ids.ts";
import { parseConsensusGold, type AbGoldItem, type ConsensusGoldItem } from "./gold.ts";

/** What goldFor reads of a study item. */
export interface GoldItemSource {
  itemId: number;
  kind: TaskTypeId;
  isGold: boolean;
  gold: unknown;
  levelA: number | null;
  levelB: number | null;
}

export function goldFor(items: readonly GoldItemSource[]): { consensus: ConsensusGoldItem[]; ab: AbGoldItem[] } {
  const gold = items.filter((i) => i.isGold);
  return {
    consensus: gold.filter((i) => i.kind === CONSENSUS_SNIPPET).map((i) => ({ itemId: i.itemId, reference: parseConsensusGold(i.gold, i.itemId).topics })),
    ab: gold.filter((i) => i.kind === AB_REACTIVENESS).map((i) => ({ itemId: i.itemId, levelA: i.levelA as number, levelB: i.levelB as number })),
  };
}

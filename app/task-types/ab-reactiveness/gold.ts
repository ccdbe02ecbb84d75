/** An A/B gold item passes when the choice names the side with the higher level. */
import type { ItemId } from "../../domain/validation/types.ts";
import type { GoldRules } from "../task-type.ts";
import type { AbLabelPayload } from "./label.ts";

export interface AbGoldItem {
  itemId: ItemId;
  levelA: number;
  levelB: number;
}

export const abGold: GoldRules<AbLabelPayload, AbGoldItem> = {
  itemName: "an A/B gold item",
  fromItem: (item) => ({ itemId: item.itemId, levelA: item.levelA as number, levelB: item.levelB as number }),
  checkItem: (item) => {
    if (!Number.isFinite(item.levelA) || !Number.isFinite(item.levelB) || item.levelA === item.levelB) {
      throw new RangeError(
        `A/B gold item ${String(item.itemId)} needs two different finite levels, got ${item.levelA} and ${item.levelB}`,
      );
    }
  },
  passes: (label, item) => label.choice === expectedSide(item),
  explain: (label, item, _tolerance, _scenario, targetParty) => [
    `Expected: conversation ${expectedSide(item)}, where ${targetParty || "the highlighted party"} is the more reactive negotiator.`,
    `You chose conversation ${label.choice}.`,
  ],
};

/** The side whose target party was simulated as the more reactive. */
const expectedSide = (item: AbGoldItem) => (item.levelA > item.levelB ? "A" : "B");

/**
 * A consensus gold item passes when, on every topic of its gold reference, the annotator's score
 * is within ±tolerance of the reference score. A topic left unscored fails.
 */
import { z } from "zod";
import type { ItemId } from "../../domain/validation/types.ts";
import type { GoldRules } from "../task-type.ts";
import type { ConsensusLabel } from "./label.ts";

/** The `gold` JSON of a consensus gold item: topic id → reference score 1–5. */
export const consensusGoldSchema = z
  .object({ topics: z.record(z.string(), z.number().int("a gold score is a whole number").min(1).max(5)) })
  .strict();
export type ConsensusGold = z.infer<typeof consensusGoldSchema>;

/** Parses a consensus item's stored gold; the error names the item and the JSON path. */
export function parseConsensusGold(value: unknown, itemId: ItemId): ConsensusGold {
  const parsed = consensusGoldSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = ["gold", ...issue.path].join(".");
  throw new RangeError(`item ${String(itemId)}: ${path}: ${issue.message}`);
}

export interface ConsensusGoldItem {
  itemId: ItemId;
  /** Topic id → reference score 1–5. */
  reference: Record<string, number>;
}

export const consensusGold: GoldRules<ConsensusLabel, ConsensusGoldItem> = {
  itemName: "a consensus gold item",
  fromItem: (item) => ({ itemId: item.itemId, reference: parseConsensusGold(item.gold, item.itemId).topics }),
  passes: (label, item, tolerance) =>
    Object.entries(item.reference).every(([topicId, ref]) => {
      const entry = label.topics[topicId];
      return entry !== undefined && Math.abs(entry.score - ref) <= tolerance;
    }),
  explain: (label, item, tolerance, scenario) =>
    Object.entries(item.reference).map(([topicId, ref]) => {
      const name = scenario.topics.find((t) => t.id === topicId)?.name ?? topicId;
      const given = label.topics[topicId]?.score;
      const [low, high] = [Math.max(1, ref - tolerance), Math.min(5, ref + tolerance)];
      const within = low < high ? ` (${low}–${high} counts as a match)` : "";
      const yours = given === undefined ? "you gave no score" : `you gave ${given}`;
      const verdict = given !== undefined && Math.abs(given - ref) <= tolerance ? "a match" : "not a match";
      return `${name}: expected agreement ${ref}${within}; ${yours} — ${verdict}.`;
    }),
};

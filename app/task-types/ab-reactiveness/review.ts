/**
 * An A/B label in words, what changed between two revisions of one, and where a pair sits
 * ("Pair 4 of 20 · about Bob").
 */
import type { PlaceItem, RevisionChange } from "../../domain/label-review/words.ts";
import { AB_REACTIVENESS, type AbLabelPayload } from "./label.ts";

export interface AbSummary {
  kind: typeof AB_REACTIVENESS;
  choice: "A" | "B";
  /** "Conversation A: Bob is the more reactive negotiator". */
  text: string;
}

/** The choice in words; `targetParty` names the pair's compared party. */
export function summariseAb(payload: AbLabelPayload, targetParty: string): AbSummary {
  return {
    kind: AB_REACTIVENESS,
    choice: payload.choice,
    text: `Conversation ${payload.choice}: ${targetParty} is the more reactive negotiator`,
  };
}

export function abChanges(before: AbSummary, after: AbSummary): RevisionChange[] {
  return before.choice !== after.choice
    ? [{ path: "choice", text: `Choice: conversation ${before.choice} → conversation ${after.choice}` }]
    : [];
}

/** The place of each pair of a study (its A/B items, in study order). */
export function abPlaces(items: readonly PlaceItem[]): Map<number, string> {
  const places = new Map<number, string>();
  items.forEach((item, i) => {
    const about = item.targetName ? ` · about ${item.targetName}` : "";
    places.set(item.itemId, `Pair ${i + 1} of ${items.length}${about}`);
  });
  return places;
}

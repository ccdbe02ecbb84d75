/** An A/B reactiveness HIT's input-CSV values: both conversations, the compared party marked. */
import { escapeHtml, renderDialogue, type HitScenario, type HitTurn } from "../../domain/crowd/hit-render.ts";

/** The input-CSV columns of the A/B reactiveness template. */
export const AB_VARIABLES = [
  "study_id",
  "item_id",
  "target_party",
  "conversation_a_html",
  "conversation_b_html",
] as const;

export type AbVariable = (typeof AB_VARIABLES)[number];

export interface AbHitInput {
  studyId: number;
  itemId: number;
  scenario: HitScenario;
  targetParty: { id: string; name: string };
  conversationA: readonly HitTurn[];
  conversationB: readonly HitTurn[];
}

/** One HIT's values for the A/B template; every value is safe HTML. */
export function abHitValues(input: AbHitInput): Record<AbVariable, string> {
  const partyOrder = input.scenario.parties.map((p) => p.id);
  const dialogue = (turns: readonly HitTurn[]) =>
    renderDialogue(turns, { partyOrder, targetPartyId: input.targetParty.id });
  return {
    study_id: String(input.studyId),
    item_id: String(input.itemId),
    target_party: escapeHtml(input.targetParty.name),
    conversation_a_html: dialogue(input.conversationA),
    conversation_b_html: dialogue(input.conversationB),
  };
}

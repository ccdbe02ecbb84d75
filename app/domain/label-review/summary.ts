/**
 * What an annotator answered, in words: the answer summary My labels shows per row and a label's
 * history shows per revision, each type's own wording (its folder's review.ts) looked up by the
 * payload's kind. Topic and party ids are kept only to match revisions up; the pages show names,
 * option letters and option text.
 */
import { taskType, type AnswerSummary, type LabelPayload } from "../../task-types/registry.ts";
import type { SummaryScenario } from "./words.ts";

export { OPTION_TEXT_LIMIT, shorten, type SummaryScenario } from "./words.ts";
export type { AnswerSummary };

/** A label in words; `targetParty` names an A/B pair's party (a type that has none ignores it). */
export function summariseAnswer(
  payload: LabelPayload,
  scenario: SummaryScenario,
  targetParty = "the highlighted party",
): AnswerSummary {
  return taskType(payload.kind as string).review.summarise(payload, scenario, targetParty) as AnswerSummary;
}

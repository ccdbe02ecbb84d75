/** How an A/B answer's radio buttons are named (`choice|B`) and read back from MTurk's `taskAnswers`. */
import { buttonName, chosenButtons, itemIdOf, type AnswerResult } from "../../domain/crowd/answer-fields.ts";
import { AB_REACTIVENESS, type AbLabelPayload } from "./label.ts";

export const choiceField = (side: "A" | "B"): string => buttonName("choice", side);

/** A/B answer: exactly one of `choice|A`, `choice|B`. */
export function abPayloadFromAnswers(answers: Record<string, unknown>): AnswerResult<AbLabelPayload> {
  const chosen = chosenButtons(answers, "choice");
  if (chosen.length === 0) return { ok: false, problems: [{ path: "choice", message: "no conversation was chosen" }] };
  if (chosen.length > 1)
    return {
      ok: false,
      problems: [
        { path: "choice", message: `more than one choice is marked (${chosen.map((c) => c.name).join(", ")})` },
      ],
    };
  const side = chosen[0].parts[0];
  if (side !== "A" && side !== "B")
    return { ok: false, problems: [{ path: "choice", message: `"${side}" is not A or B` }] };
  return { ok: true, payload: { kind: AB_REACTIVENESS, choice: side }, itemId: itemIdOf(answers) };
}

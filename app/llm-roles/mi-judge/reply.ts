/** What the MI judge must reply for one intervention: a reason and four scores (checked by the LLM layer). */
import { z } from "zod";
import { NOT_APPLICABLE } from "../../domain/metrics/mediator-intelligence.ts";

const dimensionScore = z
  .number()
  .int("a score is a whole number")
  .refine(
    (v) => v === NOT_APPLICABLE || (v >= 1 && v <= 5),
    "a score is from 1 to 5, or -1 when the problem was not present",
  );

export const miReplySchema = z.object({
  reason: z.string().trim().min(1, "give a short reason"),
  perception_alignment: dimensionScore,
  emotional_dynamics: dimensionScore,
  cognitive_challenges: dimensionScore,
  communication_breakdowns: dimensionScore,
});
export type MiReply = z.infer<typeof miReplySchema>;

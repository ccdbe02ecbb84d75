/**
 * What the mediator must reply (checked by the LLM layer, one repair retry): the generic and naive
 * mediators decide whether to step in and what to say; the socially intelligent one also keeps a
 * consensus tracker, rates its motivation, drafts one candidate per strategy and rates each.
 */
import { z } from "zod";

/** A thought or an utterance: never empty (as a party's). */
const said = z.string().trim().min(1, "must not be empty");

export const mediatorWhenReplySchema = z.object({ should_engage: z.boolean(), thought: said });

/** An utterance: the generic and naive how, the social mediator's voiced candidate and its closing. */
export const mediatorHowReplySchema = z.object({ utterance: said });

/** The four mediation strategies the social mediator drafts from, in its tie-break order. */
export const MEDIATION_STRATEGIES = ["facilitative", "evaluative", "transformative", "problem-solving"] as const;

/** A rating on the 1–5 scale (the simulation rounds it to one decimal place). */
const rating = z.number().min(1).max(5);

/** The consensus tracker after the latest turn: per topic, settled or not and the options still in play. */
export const mediatorTrackerReplySchema = z.object({
  topics: z
    .array(
      z.object({
        topic_id: said,
        settled: z.boolean(),
        options: z.array(said),
        note: z.string().trim().optional(),
      }),
    )
    .min(1),
});

/** How strongly the social mediator wants to step in now (1–5), and why. */
export const mediatorMotivationReplySchema = z.object({ motivation: rating, thought: said });

/** Exactly one drafted intervention per strategy. */
export const mediatorCandidatesReplySchema = z.object({
  candidates: z
    .array(z.object({ strategy: z.enum(MEDIATION_STRATEGIES), text: said }))
    .length(MEDIATION_STRATEGIES.length)
    .refine((cs) => MEDIATION_STRATEGIES.every((s) => cs.some((c) => c.strategy === s)), {
      message: `one candidate for each strategy: ${MEDIATION_STRATEGIES.join(", ")}`,
    }),
});

/** One candidate rated on the four breakdown dimensions. */
export const mediatorRatingReplySchema = z.object({
  perception: rating,
  emotion: rating,
  cognition: rating,
  communication: rating,
  reason: said,
});

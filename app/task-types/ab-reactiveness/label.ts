/**
 * What an annotator submits for an A/B reactiveness pair: the conversation (A or B) where the
 * target party reacts more emotionally. The id is the study type, the item kind and the payload's
 * `kind` alike (and the name of this folder).
 */
import { z } from "zod";

export const AB_REACTIVENESS = "ab-reactiveness" as const;

export const abLabelSchema = z.object({ kind: z.literal(AB_REACTIVENESS), choice: z.enum(["A", "B"]) }).strict();

export type AbLabelPayload = z.infer<typeof abLabelSchema>;

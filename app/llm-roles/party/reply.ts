/** What a party must reply (checked by the LLM layer, one repair retry). */
import { z } from "zod";
import { emotionScore, SIGNALS } from "../../domain/bundle.ts";

const said = z.string().trim().min(1, "must not be empty");

export const partyReplySchema = z.object({ thought: said, utterance: said, signal: z.enum(SIGNALS) });

/** A party's reply in a run with emotion: also how it feels now (0–100) and why, both private. */
export const partyEmotionReplySchema = partyReplySchema.extend({ emotion: emotionScore, emotion_reason: said });

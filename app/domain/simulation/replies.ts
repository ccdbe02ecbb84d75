/** What the simulation's three kinds of call must reply (checked by the LLM layer, one repair retry). */
import { z } from "zod";
import { emotionScore, SIGNALS } from "../bundle.ts";

const said = z.string().trim().min(1, "must not be empty");

export const partyReplySchema = z.object({ thought: said, utterance: said, signal: z.enum(SIGNALS) });

/** A party's reply in a run with emotion: also how it feels now (0–100) and why, both private. */
export const partyEmotionReplySchema = partyReplySchema.extend({ emotion: emotionScore, emotion_reason: said });

export const mediatorWhenReplySchema = z.object({ should_engage: z.boolean(), thought: said });

export const mediatorHowReplySchema = z.object({ utterance: said });

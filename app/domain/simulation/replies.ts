/** What the simulation's three kinds of call must reply (checked by the LLM layer, one repair retry). */
import { z } from "zod";
import { SIGNALS } from "../bundle.ts";

const said = z.string().trim().min(1, "must not be empty");

export const partyReplySchema = z.object({ thought: said, utterance: said, signal: z.enum(SIGNALS) });
export type PartyReply = z.infer<typeof partyReplySchema>;

export const mediatorWhenReplySchema = z.object({ should_engage: z.boolean(), thought: said });
export type MediatorWhenReply = z.infer<typeof mediatorWhenReplySchema>;

export const mediatorHowReplySchema = z.object({ utterance: said });
export type MediatorHowReply = z.infer<typeof mediatorHowReplySchema>;

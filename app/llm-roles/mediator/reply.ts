/** What the mediator must reply: whether it steps in, and what it says (checked by the LLM layer, one repair retry). */
import { z } from "zod";

/** A thought or an utterance: never empty (as a party's). */
const said = z.string().trim().min(1, "must not be empty");

export const mediatorWhenReplySchema = z.object({ should_engage: z.boolean(), thought: said });

export const mediatorHowReplySchema = z.object({ utterance: said });

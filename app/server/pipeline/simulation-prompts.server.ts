/**
 * Chat messages for the simulation's three kinds of call: the values built from the views by
 * app/domain/prompts/simulation-values.ts, rendered into the templates in ./prompts.
 */
import type { MediatorView, PartyView } from "../../domain/visibility.ts";
import type { ChatMessage } from "../../domain/llm/types.ts";
import { mediatorHowValues, mediatorWhenValues, partyValues } from "../../domain/prompts/simulation-values.ts";
import type { SimulationPrompts } from "../../domain/simulation/simulate-run.ts";
import { renderMessages } from "./prompt-templates.server.ts";

export const SIMULATION_TEMPLATES = ["party", "mediator-when", "mediator-how"] as const;

export function partyMessages(view: PartyView): ChatMessage[] {
  return renderMessages("party", partyValues(view));
}

export function mediatorWhenMessages(view: MediatorView): ChatMessage[] {
  return renderMessages("mediator-when", mediatorWhenValues(view));
}

export function mediatorHowMessages(view: MediatorView, reason: string): ChatMessage[] {
  return renderMessages("mediator-how", mediatorHowValues(view, reason));
}

/** The message builders simulateRun is given, rendered from the templates on disk. */
export const simulationPrompts: SimulationPrompts = { party: partyMessages, mediatorWhen: mediatorWhenMessages, mediatorHow: mediatorHowMessages };

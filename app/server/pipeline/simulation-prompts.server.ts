/**
 * Chat messages for the simulation's kinds of call: the values built from the views by
 * app/domain/prompts/simulation-values.ts, rendered into the templates in ./prompts. The mediator
 * has a mode: `generic` (mediator-when/mediator-how) or `social`, a socially intelligent mediator
 * after ProMediate (mediator-when-social/mediator-how-social: same placeholders, same replies).
 * The party speaks from `party`, or from `party-emotion` in a run with emotion (RunSetup.emotion),
 * where it also rates how it feels.
 */
import type { MediatorView, PartyView } from "../../domain/visibility.ts";
import type { ChatMessage } from "../../domain/llm/types.ts";
import type { MediatorMode } from "../../domain/benchmark/plan.ts";
import {
  mediatorHowValues,
  mediatorWhenValues,
  partyEmotionValues,
  partyValues,
} from "../../domain/prompts/simulation-values.ts";
import type { SimulationPrompts } from "../../domain/simulation/simulate-run.ts";
import { renderMessages } from "./prompt-templates.server.ts";

export const SIMULATION_TEMPLATES = ["party", "mediator-when", "mediator-how"] as const;

/** Whether the runs' parties self-report their emotion (the `party-emotion` template). */
export interface SimulationOptions {
  emotion?: boolean;
}

/**
 * The templates a run with a mediator of this mode (and with or without emotion) renders: its prompt_version hashes
 * them.
 */
export function simulationTemplatesFor(mode: MediatorMode, options: SimulationOptions = {}): readonly string[] {
  const party = options.emotion ? "party-emotion" : "party";
  return mode === "generic"
    ? [party, "mediator-when", "mediator-how"]
    : [party, `mediator-when-${mode}`, `mediator-how-${mode}`];
}

export function partyMessages(view: PartyView): ChatMessage[] {
  return renderMessages("party", partyValues(view));
}

export function partyEmotionMessages(view: PartyView): ChatMessage[] {
  return renderMessages("party-emotion", partyEmotionValues(view));
}

export function mediatorWhenMessages(view: MediatorView, mode: MediatorMode = "generic"): ChatMessage[] {
  return renderMessages(simulationTemplatesFor(mode)[1], mediatorWhenValues(view));
}

export function mediatorHowMessages(view: MediatorView, reason: string, mode: MediatorMode = "generic"): ChatMessage[] {
  return renderMessages(simulationTemplatesFor(mode)[2], mediatorHowValues(view, reason));
}

/**
 * The message builders simulateRun is given for a mediator mode, rendered from the templates on
 * disk; they cover both party templates, and simulateRun picks one by RunSetup.emotion.
 */
export function simulationPromptsFor(mode: MediatorMode): SimulationPrompts {
  return {
    party: partyMessages,
    partyEmotion: partyEmotionMessages,
    mediatorWhen: (view) => mediatorWhenMessages(view, mode),
    mediatorHow: (view, reason) => mediatorHowMessages(view, reason, mode),
    templates: {
      party: "party",
      partyEmotion: "party-emotion",
      mediatorWhen: simulationTemplatesFor(mode)[1],
      mediatorHow: simulationTemplatesFor(mode)[2],
    },
  };
}

/** The generic mediator's builders (what `simulate`, fidelity and curation replays use). */
export const simulationPrompts: SimulationPrompts = simulationPromptsFor("generic");

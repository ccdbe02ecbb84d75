/**
 * Chat messages for the simulation's kinds of call: the values built from the views by
 * app/domain/prompts/simulation-values.ts, rendered into the templates in ./prompts. The mediator
 * has a mode: `generic` (mediator-when/mediator-how), `naive` (mediator-when-naive/mediator-how-naive: same
 * placeholders, same replies), or `social`, the socially intelligent mediator after ProMediate, whose steps
 * (tracker, when, draft, rate, voice, close) app/domain/simulation/social-mediator.ts makes.
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
import { SOCIAL_TEMPLATES, type SocialStep } from "../../domain/simulation/social-mediator.ts";

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
  if (mode === "social") return [party, ...Object.values(SOCIAL_TEMPLATES)];
  return [party, ...whenHowTemplates(mode)];
}

/** The when and how templates of a mode that makes one decision and one utterance per gap. */
function whenHowTemplates(mode: Exclude<MediatorMode, "social">): [string, string] {
  return mode === "generic" ? ["mediator-when", "mediator-how"] : [`mediator-when-${mode}`, `mediator-how-${mode}`];
}

export function partyMessages(view: PartyView): ChatMessage[] {
  return renderMessages("party", partyValues(view));
}

export function partyEmotionMessages(view: PartyView): ChatMessage[] {
  return renderMessages("party-emotion", partyEmotionValues(view));
}

export function mediatorWhenMessages(view: MediatorView, mode: MediatorMode = "generic"): ChatMessage[] {
  return renderMessages(whenHowOf(mode)[0], mediatorWhenValues(view));
}

export function mediatorHowMessages(view: MediatorView, reason: string, mode: MediatorMode = "generic"): ChatMessage[] {
  return renderMessages(whenHowOf(mode)[1], mediatorHowValues(view, reason));
}

/** The social mode never renders when/how (its gap has its own steps); its builders fall back to the generic ones. */
const whenHowOf = (mode: MediatorMode) => whenHowTemplates(mode === "social" ? "generic" : mode);

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
      mediatorWhen: whenHowOf(mode)[0],
      mediatorHow: whenHowOf(mode)[1],
    },
    ...(mode === "social"
      ? { social: (step: SocialStep, values: Record<string, string>) => renderMessages(SOCIAL_TEMPLATES[step], values) }
      : {}),
  };
}

/** The generic mediator's builders (what `simulate`, fidelity and curation replays use). */
export const simulationPrompts: SimulationPrompts = simulationPromptsFor("generic");

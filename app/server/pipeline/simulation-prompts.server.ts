/**
 * Chat messages for the simulation's three kinds of call, built only from the views in
 * app/domain/visibility.ts and the templates in ./prompts. Everything here is a pure function of
 * the view, so replaying a run reproduces every request byte for byte (and hits the LLM cache).
 */
import type { MediatorView, PartyView, SharedView, VisibleTopic } from "../../domain/visibility.ts";
import type { ChatMessage } from "../../domain/llm/types.ts";
import type { SimulationPrompts } from "../../domain/simulation/simulate-run.ts";
import { renderMessages } from "./prompt-templates.server.ts";

export const SIMULATION_TEMPLATES = ["party", "mediator-when", "mediator-how"] as const;

function formatTopics(topics: VisibleTopic[]): string {
  return topics
    .map((t) => [`### ${t.name} (${t.id})`, t.description, ...t.options.map((o) => `- ${o.label}: ${o.description}`)].join("\n"))
    .join("\n\n");
}

function formatParticipants(view: SharedView, selfId?: string): string {
  return view.parties.map((p) => `- ${p.name} (${p.id})${p.id === selfId ? " — this is you" : ""}`).join("\n");
}

function sharedValues(view: SharedView, selfId?: string) {
  return { background: view.background, topics: formatTopics(view.topics), participants: formatParticipants(view, selfId) };
}

const NOTHING_SAID = "(Nothing has been said yet.)";

function formatDialogue(view: SharedView): string {
  if (view.dialogue.length === 0) return NOTHING_SAID;
  return view.dialogue.map((l) => `[${l.turnId}] ${l.speakerName}: ${l.utterance}`).join("\n\n");
}

/** The party's transcript: its own lines marked as its own, each with the thought it had then. */
function formatPartyDialogue(view: PartyView): string {
  if (view.dialogue.length === 0) return `${NOTHING_SAID} You open the negotiation.`;
  const thoughts = new Map(view.ownThoughts.map((t) => [t.turnId, t.thought]));
  return view.dialogue
    .map((l) => {
      if (l.speakerId !== view.self.id) return `[${l.turnId}] ${l.speakerName}: ${l.utterance}`;
      const thought = thoughts.get(l.turnId);
      return `[${l.turnId}] You: ${l.utterance}${thought ? `\n(Your private thought then: ${thought})` : ""}`;
    })
    .join("\n\n");
}

function formatProfile(view: PartyView): string {
  const { self } = view;
  const stances = view.topics.map((t) => `- ${t.name} (${t.id}), weight ${self.weights[t.id]} of 10: ${self.preferences[t.id]}`);
  return [
    `You are: ${self.name}`,
    `Your position and aims: ${self.role}`,
    `Your relation to the others: ${self.relation}`,
    "Your starting stance on each topic, with how much it matters to you:",
    ...stances,
    ...(self.persona ? ["", `How you come across: ${self.persona}`] : []),
  ].join("\n");
}

export function partyMessages(view: PartyView): ChatMessage[] {
  return renderMessages("party", {
    ...sharedValues(view, view.self.id),
    party_name: view.self.name,
    profile: formatProfile(view),
    dialogue: formatPartyDialogue(view),
  });
}

export function mediatorWhenMessages(view: MediatorView): ChatMessage[] {
  const last = view.dialogue.at(-1);
  if (!last) throw new Error("the mediator decides only after a party has spoken");
  return renderMessages("mediator-when", { ...sharedValues(view), dialogue: formatDialogue(view), last_speaker: last.speakerName });
}

export function mediatorHowMessages(view: MediatorView, reason: string): ChatMessage[] {
  return renderMessages("mediator-how", { ...sharedValues(view), dialogue: formatDialogue(view), reason });
}

/** The message builders simulateRun is given, rendered from the templates on disk. */
export const simulationPrompts: SimulationPrompts = { party: partyMessages, mediatorWhen: mediatorWhenMessages, mediatorHow: mediatorHowMessages };

/**
 * The values the simulation's prompt templates (party or party-emotion, mediator-when,
 * mediator-how) are filled with, built only from the views in app/domain/visibility.ts. Each is
 * a pure function of the view, so replaying a run reproduces every request byte for byte (and
 * hits the LLM cache). The server renders them into the templates on disk.
 */
import { emotionScaleText } from "../emotion/scale.ts";
import type { MediatorView, PartyView, SharedView, VisibleTopic } from "../visibility.ts";

function formatTopics(topics: VisibleTopic[]): string {
  return topics
    .map((t) =>
      [`### ${t.name} (${t.id})`, t.description, ...t.options.map((o) => `- ${o.label}: ${o.description}`)].join("\n"),
    )
    .join("\n\n");
}

function formatParticipants(view: SharedView, selfId?: string): string {
  return view.parties.map((p) => `- ${p.name} (${p.id})${p.id === selfId ? " — this is you" : ""}`).join("\n");
}

function sharedValues(view: SharedView, selfId?: string) {
  return {
    background: view.background,
    topics: formatTopics(view.topics),
    participants: formatParticipants(view, selfId),
  };
}

const NOTHING_SAID = "(Nothing has been said yet.)";

function formatDialogue(view: SharedView): string {
  if (view.dialogue.length === 0) return NOTHING_SAID;
  return view.dialogue.map((l) => `[${l.turnId}] ${l.speakerName}: ${l.utterance}`).join("\n\n");
}

/**
 * The party's transcript: its own lines marked as its own, each with the thought it had then and,
 * in a run with emotion, how it felt then (a run without emotion has none, so its text is unchanged).
 */
function formatPartyDialogue(view: PartyView): string {
  if (view.dialogue.length === 0) return `${NOTHING_SAID} You open the negotiation.`;
  const thoughts = new Map(view.ownThoughts.map((t) => [t.turnId, t.thought]));
  const emotions = new Map(view.ownEmotions.map((e) => [e.turnId, e]));
  return view.dialogue
    .map((l) => {
      if (l.speakerId !== view.self.id) return `[${l.turnId}] ${l.speakerName}: ${l.utterance}`;
      const thought = thoughts.get(l.turnId);
      const felt = emotions.get(l.turnId);
      return [
        `[${l.turnId}] You: ${l.utterance}`,
        ...(thought ? [`(Your private thought then: ${thought})`] : []),
        ...(felt
          ? [`(How you felt then, privately: ${felt.emotion} of 100${felt.reason ? ` — ${felt.reason}` : ""})`]
          : []),
      ].join("\n");
    })
    .join("\n\n");
}

function formatProfile(view: PartyView): string {
  const { self } = view;
  const stances = view.topics.map(
    (t) => `- ${t.name} (${t.id}), weight ${self.weights[t.id]} of 10: ${self.preferences[t.id]}`,
  );
  return [
    `You are: ${self.name}`,
    `Your position and aims: ${self.role}`,
    `Your relation to the others: ${self.relation}`,
    "Your starting stance on each topic, with how much it matters to you:",
    ...stances,
    ...(self.persona ? ["", `How you come across: ${self.persona}`] : []),
  ].join("\n");
}

/** The values of the `party` template: what one party may see, in its own voice. */
export function partyValues(view: PartyView): Record<string, string> {
  return {
    ...sharedValues(view, view.self.id),
    party_name: view.self.name,
    profile: formatProfile(view),
    dialogue: formatPartyDialogue(view),
  };
}

/** The values of the `party-emotion` template: the party's values plus the shared emotion scale. */
export function partyEmotionValues(view: PartyView): Record<string, string> {
  return { ...partyValues(view), emotion_scale: emotionScaleText() };
}

/** The values of the `mediator-when` template: the shared view and who spoke last. */
export function mediatorWhenValues(view: MediatorView): Record<string, string> {
  const last = view.dialogue.at(-1);
  if (!last) throw new Error("the mediator decides only after a party has spoken");
  return { ...sharedValues(view), dialogue: formatDialogue(view), last_speaker: last.speakerName };
}

/**
 * The shared values every mediator template has (background, parties, topics): the social mediator's steps add theirs.
 */
export function mediatorSharedValues(view: MediatorView): Record<string, string> {
  return sharedValues(view);
}

/** The values of the `mediator-how` template: the shared view and why the mediator steps in. */
export function mediatorHowValues(view: MediatorView, reason: string): Record<string, string> {
  return { ...sharedValues(view), dialogue: formatDialogue(view), reason };
}

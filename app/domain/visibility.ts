/**
 * What each agent of a simulation may see (SoCRATES §3.1). Prompts are built only from these
 * views, so a private field can reach a prompt only by passing through here.
 *
 * - Shared input, visible to all: the background, the topics with their options, who takes
 *   part (ids and names), and the utterances spoken so far.
 * - A party also sees its own private profile (role with objective and fallback, relation,
 *   per-topic stances, weights, persona), its own earlier thoughts and its own earlier
 *   self-reported emotion scores with their reasons. Never another party's.
 * - The mediator sees the shared input only: no thoughts, emotions, profiles, weights, personas
 *   or signals.
 */
import { MEDIATOR_ID, type Party, type Topic, type Turn } from "./bundle.ts";

export interface PlayedScenario {
  background: string;
  topics: Topic[];
  parties: Party[];
}

export interface VisibleTopic {
  id: string;
  name: string;
  description: string;
  options: { label: string; description: string }[];
}

export interface Participant {
  id: string;
  name: string;
}

export interface VisibleLine {
  turnId: number;
  speakerId: string;
  speakerName: string;
  utterance: string;
}

export interface SharedView {
  background: string;
  topics: VisibleTopic[];
  parties: Participant[];
  dialogue: VisibleLine[];
}

export type MediatorView = SharedView;

export interface PrivateProfile {
  id: string;
  name: string;
  role: string;
  relation: string;
  /** Per topic id: this party's stance. */
  preferences: Record<string, string>;
  /** Per topic id: how much the topic matters to this party (they sum to 10). */
  weights: Record<string, number>;
  persona?: string;
}

export interface PartyView extends SharedView {
  self: PrivateProfile;
  /** This party's own earlier thoughts, by the turn they went with. */
  ownThoughts: { turnId: number; thought: string }[];
  /**
   * This party's own earlier self-reported emotion (runs simulated with emotion), by turn; reason "" when none was
   * kept.
   */
  ownEmotions: { turnId: number; emotion: number; reason: string }[];
}

export const MEDIATOR_NAME = "Mediator";

// Each view copies the fields it allows one by one, so a field added to a record later stays
// private until someone decides otherwise here.
function visibleTopics(topics: readonly Topic[]): VisibleTopic[] {
  return topics.map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    options: t.options.map((o) => ({ label: o.label, description: o.description })),
  }));
}

function sharedView(scenario: PlayedScenario, turns: readonly Turn[]): SharedView {
  const names = new Map(scenario.parties.map((p) => [p.id, p.name]));
  return {
    background: scenario.background,
    topics: visibleTopics(scenario.topics),
    parties: scenario.parties.map((p) => ({ id: p.id, name: p.name })),
    dialogue: turns.map((t) => ({
      turnId: t.turn_id,
      speakerId: t.speaker,
      speakerName: t.speaker === MEDIATOR_ID ? MEDIATOR_NAME : (names.get(t.speaker) ?? t.speaker),
      utterance: t.utterance,
    })),
  };
}

export function mediatorView(scenario: PlayedScenario, turns: readonly Turn[]): MediatorView {
  return sharedView(scenario, turns);
}

export function partyView(scenario: PlayedScenario, partyId: string, turns: readonly Turn[]): PartyView {
  const party = scenario.parties.find((p) => p.id === partyId);
  if (!party) throw new Error(`unknown party "${partyId}" (parties: ${scenario.parties.map((p) => p.id).join(", ")})`);
  const topicIds = scenario.topics.map((t) => t.id);
  return {
    ...sharedView(scenario, turns),
    self: {
      id: party.id,
      name: party.name,
      role: party.role,
      relation: party.relation,
      preferences: Object.fromEntries(topicIds.map((k) => [k, party.preferences[k]])),
      weights: Object.fromEntries(topicIds.map((k) => [k, party.weights[k]])),
      ...(party.persona ? { persona: party.persona } : {}),
    },
    ownThoughts: turns
      .filter((t) => t.role === "party" && t.speaker === partyId && t.thought)
      .map((t) => ({ turnId: t.turn_id, thought: t.thought! })),
    ownEmotions: turns
      .filter((t) => t.role === "party" && t.speaker === partyId && t.emotion !== undefined)
      .map((t) => ({ turnId: t.turn_id, emotion: t.emotion!, reason: t.emotion_reason ?? "" })),
  };
}

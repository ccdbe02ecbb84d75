/**
 * The consensus task's form state as a pure reducer: scores, positions, carry-forward with undo,
 * which topic and party the keyboard is on, the completeness check and the key map. Kept free of
 * React and the DOM so it is tested directly.
 */
import {
  AGREEMENT_SCORES,
  POSITION_NOT_STATED,
  POSITION_UNCLEAR,
  type ConsensusLabel,
  CONSENSUS_SNIPPET,
} from "./label.ts";
import { commandOf, keyName, keysOf, type KeyLike, type ShortcutSpec } from "../../domain/shortcuts.ts";
import type { FieldProblem, TaskScenario } from "../task-view.ts";

/**
 * A label still being filled in: missing scores are absent, missing positions left out. A full label is also a draft.
 */
export interface ConsensusDraft {
  kind: typeof CONSENSUS_SNIPPET;
  topics: Record<string, { score?: number; carriedForward: boolean; positions: Record<string, string> }>;
}

export interface FormConfig {
  topics: { id: string; name: string; optionLabels: string[] }[];
  parties: { id: string; name: string }[];
}

interface TopicValues {
  score: number | null;
  positions: Record<string, string | null>;
}

export interface TopicDraft extends TopicValues {
  carriedForward: boolean;
  /** What the topic held before "carry forward", so pressing it again restores it. */
  beforeCarry: TopicValues | null;
}

export interface ConsensusFormState {
  config: FormConfig;
  topics: Record<string, TopicDraft>;
  /** Index of the topic the keyboard works on. */
  focusedTopic: number;
  /** Index of the party whose position letter keys set. */
  activeParty: number;
  /** Bumped when the component should move DOM focus to the focused topic. */
  focusRequest: number;
  /** Set by a submit attempt; from then on missing fields are shown. */
  attempted: boolean;
}

export type ConsensusFormAction =
  | { type: "load"; initial: ConsensusDraft | null }
  | { type: "setScore"; topicId: string; score: number }
  | { type: "setPosition"; topicId: string; partyId: string; position: string; advance?: boolean }
  | { type: "toggleCarryForward"; topicId: string; previous: ConsensusLabel | null }
  /** `moveFocus` also moves DOM focus there (e.g. to the first topic the server rejected). */
  | { type: "focusTopic"; index: number; moveFocus?: boolean }
  | { type: "focusParty"; topicIndex: number; partyIndex: number }
  | { type: "moveTopic"; delta: 1 | -1 }
  | { type: "moveParty"; delta: 1 | -1 }
  | { type: "attemptSubmit" };

export const SPECIAL_POSITION_TEXT: Record<string, string> = {
  [POSITION_UNCLEAR]: "Unclear",
  [POSITION_NOT_STATED]: "Not stated",
};

export function formConfigOf(scenario: Pick<TaskScenario, "topics" | "parties">): FormConfig {
  return {
    topics: scenario.topics.map((t) => ({ id: t.id, name: t.name, optionLabels: t.options.map((o) => o.label) })),
    parties: scenario.parties.map((p) => ({ id: p.id, name: p.name })),
  };
}

function validPosition(topic: FormConfig["topics"][number], value: unknown): value is string {
  return (
    typeof value === "string" &&
    (topic.optionLabels.includes(value) || value === POSITION_UNCLEAR || value === POSITION_NOT_STATED)
  );
}

function validScore(value: unknown): value is number {
  return typeof value === "number" && (AGREEMENT_SCORES as readonly number[]).includes(value);
}

/** Builds the form from a saved draft or label; values the scenario cannot hold are left empty. */
export function initConsensusForm(config: FormConfig, initial: ConsensusDraft | null): ConsensusFormState {
  const topics: Record<string, TopicDraft> = {};
  for (const topic of config.topics) {
    const saved = initial?.topics[topic.id];
    const positions: Record<string, string | null> = {};
    for (const party of config.parties) {
      const value = saved?.positions?.[party.id];
      positions[party.id] = validPosition(topic, value) ? value : null;
    }
    topics[topic.id] = {
      score: validScore(saved?.score) ? saved.score : null,
      positions,
      carriedForward: saved?.carriedForward === true,
      beforeCarry: null,
    };
  }
  const state: ConsensusFormState = {
    config,
    topics,
    focusedTopic: 0,
    activeParty: 0,
    focusRequest: 0,
    attempted: false,
  };
  const firstOpen = config.topics.findIndex((t) => !isTopicComplete(state, t.id));
  return withFocus(state, firstOpen < 0 ? 0 : firstOpen);
}

export function isTopicComplete(state: ConsensusFormState, topicId: string): boolean {
  const draft = state.topics[topicId];
  return draft.score !== null && state.config.parties.every((p) => draft.positions[p.id] !== null);
}

/** Focus a topic; the active party becomes the first one still without a position there. */
function withFocus(state: ConsensusFormState, index: number): ConsensusFormState {
  const topic = state.config.topics[index];
  if (!topic) return state;
  const open = state.config.parties.findIndex((p) => state.topics[topic.id].positions[p.id] === null);
  return { ...state, focusedTopic: index, activeParty: open < 0 ? 0 : open };
}

function updateTopic(state: ConsensusFormState, topicId: string, patch: Partial<TopicDraft>): ConsensusFormState {
  return { ...state, topics: { ...state.topics, [topicId]: { ...state.topics[topicId], ...patch } } };
}

/** Why carry-forward is unavailable for a topic, or null when it is available. */
export function carryForwardBlocker(previous: ConsensusLabel | null, topicId: string): string | null {
  if (!previous)
    return "Nothing to carry forward: you have no label on the preceding snippet (or this is the first snippet).";
  if (!previous.topics[topicId])
    return "Nothing to carry forward: your label on the preceding snippet has no entry for this topic.";
  return null;
}

export function consensusFormReducer(state: ConsensusFormState, action: ConsensusFormAction): ConsensusFormState {
  const { config } = state;
  switch (action.type) {
    case "load":
      return initConsensusForm(config, action.initial);
    case "setScore": {
      const topic = state.topics[action.topicId];
      if (!topic || !validScore(action.score)) return state;
      // A score of one's own is a judgement on this snippet, no longer a carried one.
      return updateTopic(state, action.topicId, { score: action.score, carriedForward: false, beforeCarry: null });
    }
    case "setPosition": {
      const topic = state.topics[action.topicId];
      const topicConfig = config.topics.find((t) => t.id === action.topicId);
      if (
        !topic ||
        !topicConfig ||
        !(action.partyId in topic.positions) ||
        !validPosition(topicConfig, action.position)
      )
        return state;
      const next = updateTopic(state, action.topicId, {
        positions: { ...topic.positions, [action.partyId]: action.position },
        carriedForward: false,
        beforeCarry: null,
      });
      if (!action.advance) return next;
      return {
        ...next,
        activeParty: Math.min(config.parties.findIndex((p) => p.id === action.partyId) + 1, config.parties.length - 1),
      };
    }
    case "toggleCarryForward": {
      const topic = state.topics[action.topicId];
      if (!topic) return state;
      if (topic.carriedForward) {
        const restore = topic.beforeCarry ?? { score: topic.score, positions: topic.positions };
        return updateTopic(state, action.topicId, { ...restore, carriedForward: false, beforeCarry: null });
      }
      const before = action.previous?.topics[action.topicId];
      if (!before || carryForwardBlocker(action.previous, action.topicId)) return state;
      const topicConfig = config.topics.find((t) => t.id === action.topicId)!;
      const positions: Record<string, string | null> = {};
      for (const party of config.parties) {
        const value = before.positions[party.id];
        positions[party.id] = validPosition(topicConfig, value) ? value : null;
      }
      return updateTopic(state, action.topicId, {
        score: validScore(before.score) ? before.score : null,
        positions,
        carriedForward: true,
        beforeCarry: { score: topic.score, positions: topic.positions },
      });
    }
    case "focusTopic":
      if (action.index < 0 || action.index >= config.topics.length) return state;
      if (action.moveFocus) return { ...withFocus(state, action.index), focusRequest: state.focusRequest + 1 };
      return action.index === state.focusedTopic ? state : withFocus(state, action.index);
    case "focusParty":
      if (
        action.topicIndex < 0 ||
        action.topicIndex >= config.topics.length ||
        action.partyIndex < 0 ||
        action.partyIndex >= config.parties.length
      )
        return state;
      if (action.topicIndex === state.focusedTopic && action.partyIndex === state.activeParty) return state;
      return { ...state, focusedTopic: action.topicIndex, activeParty: action.partyIndex };
    case "moveTopic": {
      const index = Math.max(0, Math.min(config.topics.length - 1, state.focusedTopic + action.delta));
      return { ...withFocus(state, index), focusRequest: state.focusRequest + 1 };
    }
    case "moveParty":
      return {
        ...state,
        activeParty: Math.max(0, Math.min(config.parties.length - 1, state.activeParty + action.delta)),
      };
    case "attemptSubmit": {
      const problems = consensusFormProblems(state);
      if (problems.length === 0) return { ...state, attempted: true };
      const topicIndex = config.topics.findIndex((t) => !isTopicComplete(state, t.id));
      return { ...withFocus(state, topicIndex), attempted: true, focusRequest: state.focusRequest + 1 };
    }
  }
}

/** Every missing score and position, with payload paths like the server's. */
export function consensusFormProblems(state: ConsensusFormState): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const topic of state.config.topics) {
    const draft = state.topics[topic.id];
    for (const party of state.config.parties) {
      if (draft.positions[party.id] === null) {
        problems.push({
          path: `topics.${topic.id}.positions.${party.id}`,
          message: `Choose ${party.name}'s position on ${topic.name}.`,
        });
      }
    }
    if (draft.score === null)
      problems.push({ path: `topics.${topic.id}.score`, message: `Choose an agreement score for ${topic.name}.` });
  }
  return problems;
}

/** The saved-draft form of the state (what autosave stores). */
export function toConsensusDraft(state: ConsensusFormState): ConsensusDraft {
  const topics: ConsensusDraft["topics"] = {};
  for (const topic of state.config.topics) {
    const draft = state.topics[topic.id];
    const positions: Record<string, string> = {};
    for (const [partyId, value] of Object.entries(draft.positions)) if (value !== null) positions[partyId] = value;
    topics[topic.id] =
      draft.score === null
        ? { carriedForward: draft.carriedForward, positions }
        : { score: draft.score, carriedForward: draft.carriedForward, positions };
  }
  return { kind: CONSENSUS_SNIPPET, topics };
}

/** The label to submit, or null while anything is missing. */
export function toConsensusLabel(state: ConsensusFormState): ConsensusLabel | null {
  if (consensusFormProblems(state).length > 0) return null;
  return toConsensusDraft(state) as ConsensusLabel;
}

// ---------------------------------------------------------------------------------------------
// Keyboard

export type ConsensusCommand =
  | "nextTopic"
  | "prevTopic"
  | "nextParty"
  | "prevParty"
  | "score"
  | "option"
  | "unclear"
  | "notStated"
  | "carryForward"
  | "toggleBackground"
  | "toggleGuidelines"
  | "toggleCheatSheet"
  | "closeOverlay"
  | "submit";

const OPTION_KEYS = ["a", "b", "c", "d", "e", "f", "g", "h"] as const;

/**
 * The consensus task's key map, used by the key handler and the cheat sheet alike. Option
 * labels are the letters A–H, so the other single-letter commands avoid a–h: "r" carries forward
 * (repeat the preceding snippet), "i" toggles the scenario information, "m" the guidelines (manual). Parties are
 * addressed by a cursor instead of modifiers, which works for any number of parties and needs no Alt or Ctrl
 * combinations that browsers keep for themselves.
 */
export const CONSENSUS_SHORTCUTS: readonly ShortcutSpec<ConsensusCommand>[] = [
  { command: "nextTopic", keys: ["j", "ArrowDown"], description: "Next topic", group: "Move" },
  { command: "prevTopic", keys: ["k", "ArrowUp"], description: "Previous topic", group: "Move" },
  {
    command: "nextParty",
    keys: ["]", "ArrowRight"],
    description: "Select the next party in this topic",
    group: "Move",
  },
  {
    command: "prevParty",
    keys: ["[", "ArrowLeft"],
    description: "Select the previous party in this topic",
    group: "Move",
  },
  {
    command: "score",
    keys: ["1", "2", "3", "4", "5"],
    description: "Agreement score of the focused topic (1 = far apart … 5 = full agreement)",
    group: "Label",
    positional: true,
  },
  {
    command: "option",
    keys: OPTION_KEYS,
    description: "Selected party's position: that option letter; then the next party is selected",
    group: "Label",
    positional: true,
  },
  { command: "unclear", keys: ["u"], description: "Selected party's position: Unclear", group: "Label" },
  { command: "notStated", keys: ["n"], description: "Selected party's position: Not stated", group: "Label" },
  {
    command: "carryForward",
    keys: ["r"],
    description:
      "Topic not mentioned: carry forward your score and positions from the preceding snippet (again to undo)",
    group: "Label",
  },
  { command: "toggleBackground", keys: ["i"], description: "Show or hide the scenario background", group: "General" },
  {
    command: "toggleGuidelines",
    keys: ["m"],
    description: "Show or hide the guidelines (the manual)",
    group: "General",
  },
  { command: "toggleCheatSheet", keys: ["?"], description: "Show or hide this list of shortcuts", group: "General" },
  { command: "closeOverlay", keys: ["Escape"], description: "Close this list", group: "General", fixed: true },
  { command: "submit", keys: ["Mod+Enter"], description: "Submit and go to the next item", group: "General" },
];

/** What a key press asks of the consensus task. */
export type ConsensusKeyResult =
  | { kind: "form"; action: ConsensusFormAction; announce: string }
  | { kind: "ui"; command: "toggleBackground" | "toggleGuidelines" | "toggleCheatSheet" | "closeOverlay" | "submit" }
  | { kind: "refused"; announce: string };

/**
 * Maps a key press to a form action or UI command given the current state; null when the key is not ours. `shortcuts`
 * are the annotator's bindings of CONSENSUS_SHORTCUTS: a score or an option is the key's place in its command's keys.
 */
export function consensusKeyResult(
  state: ConsensusFormState,
  event: KeyLike,
  previous: ConsensusLabel | null,
  shortcuts: readonly ShortcutSpec<ConsensusCommand>[] = CONSENSUS_SHORTCUTS,
): ConsensusKeyResult | null {
  const command = commandOf(shortcuts, event);
  if (!command) return null;
  const { config } = state;
  const topic = config.topics[state.focusedTopic];
  const party = config.parties[state.activeParty];
  if (!topic || !party) return null;
  const position = (value: string, text: string): ConsensusKeyResult => {
    const next = config.parties[Math.min(state.activeParty + 1, config.parties.length - 1)];
    const then = next.id !== party.id ? ` Next: ${next.name}.` : "";
    return {
      kind: "form",
      action: { type: "setPosition", topicId: topic.id, partyId: party.id, position: value, advance: true },
      announce: `${party.name} on ${topic.name}: ${text}.${then}`,
    };
  };
  switch (command) {
    case "nextTopic":
    case "prevTopic": {
      const delta = command === "nextTopic" ? 1 : -1;
      const index = Math.max(0, Math.min(config.topics.length - 1, state.focusedTopic + delta));
      return {
        kind: "form",
        action: { type: "moveTopic", delta },
        announce: `Topic ${index + 1} of ${config.topics.length}: ${config.topics[index].name}.`,
      };
    }
    case "nextParty":
    case "prevParty": {
      const delta = command === "nextParty" ? 1 : -1;
      const index = Math.max(0, Math.min(config.parties.length - 1, state.activeParty + delta));
      return {
        kind: "form",
        action: { type: "moveParty", delta },
        announce: `Selected party: ${config.parties[index].name}.`,
      };
    }
    case "score": {
      const score = keysOf(shortcuts, "score").indexOf(keyName(event)) + 1;
      return {
        kind: "form",
        action: { type: "setScore", topicId: topic.id, score },
        announce: `${topic.name}: agreement ${score}.`,
      };
    }
    case "option": {
      const label = String.fromCharCode(65 + keysOf(shortcuts, "option").indexOf(keyName(event)));
      if (!topic.optionLabels.includes(label)) {
        return {
          kind: "refused",
          announce: `${topic.name} has no option ${label} (options ${topic.optionLabels.join(", ")}).`,
        };
      }
      return position(label, `option ${label}`);
    }
    case "unclear":
      return position(POSITION_UNCLEAR, SPECIAL_POSITION_TEXT[POSITION_UNCLEAR]);
    case "notStated":
      return position(POSITION_NOT_STATED, SPECIAL_POSITION_TEXT[POSITION_NOT_STATED]);
    case "carryForward": {
      const carried = state.topics[topic.id].carriedForward;
      const blocker = carried ? null : carryForwardBlocker(previous, topic.id);
      if (blocker) return { kind: "refused", announce: blocker };
      return {
        kind: "form",
        action: { type: "toggleCarryForward", topicId: topic.id, previous },
        announce: carried
          ? `${topic.name}: carry-forward undone.`
          : `${topic.name}: carried forward from the preceding snippet.`,
      };
    }
    default:
      return { kind: "ui", command };
  }
}

import { describe, expect, it } from "vitest";
import {
  CONSENSUS_SHORTCUTS,
  consensusFormProblems,
  consensusFormReducer,
  consensusKeyResult,
  formConfigOf,
  initConsensusForm,
  toConsensusDraft,
  toConsensusLabel,
  type ConsensusFormAction,
  type ConsensusFormState,
} from "../../../app/task-types/consensus-snippet/consensus-form-state.ts";
import {
  checkConsensusLabel,
  consensusLabelSchema,
  type ConsensusLabel,
} from "../../../app/task-types/consensus-snippet/label.ts";
import { previousLabel, scenario, threeParties } from "./fixtures.ts";

const config = formConfigOf(scenario);
const run = (state: ConsensusFormState, ...actions: ConsensusFormAction[]) =>
  actions.reduce(consensusFormReducer, state);
/** Applies key presses through the key map, as the component's handler does. */
const press = (state: ConsensusFormState, keys: string[], previous: ConsensusLabel | null = null) =>
  keys.reduce((s, key) => {
    const shift = key.length === 1 && key !== key.toLowerCase();
    const result = consensusKeyResult(
      s,
      { key, shiftKey: shift, ctrlKey: false, metaKey: false, altKey: false },
      previous,
    );
    return result?.kind === "form" ? consensusFormReducer(s, result.action) : s;
  }, state);

describe("consensus form state", () => {
  it("starts empty, reports every missing field with payload paths, and yields no label", () => {
    const state = initConsensusForm(config, null);
    expect(state.focusedTopic).toBe(0);
    expect(state.activeParty).toBe(0);
    expect(consensusFormProblems(state).map((p) => p.path)).toEqual([
      "topics.RENT.positions.OWNER",
      "topics.RENT.positions.COOP",
      "topics.RENT.score",
      "topics.TERM.positions.OWNER",
      "topics.TERM.positions.COOP",
      "topics.TERM.score",
    ]);
    expect(consensusFormProblems(state)[0].message).toBe("Choose Wren Halloway's position on Annual rent.");
    expect(toConsensusLabel(state)).toBeNull();
    expect(toConsensusDraft(state)).toEqual({
      kind: "consensus-snippet",
      topics: { RENT: { carriedForward: false, positions: {} }, TERM: { carriedForward: false, positions: {} } },
    });
  });

  it("builds a label the server schema and checks accept once everything is set", () => {
    const state = run(
      initConsensusForm(config, null),
      { type: "setPosition", topicId: "RENT", partyId: "OWNER", position: "C" },
      { type: "setPosition", topicId: "RENT", partyId: "COOP", position: "C" },
      { type: "setScore", topicId: "RENT", score: 4 },
      { type: "setPosition", topicId: "TERM", partyId: "OWNER", position: "unclear" },
      { type: "setPosition", topicId: "TERM", partyId: "COOP", position: "not-stated" },
      { type: "setScore", topicId: "TERM", score: 1 },
    );
    const label = toConsensusLabel(state);
    expect(label).toEqual({
      kind: "consensus-snippet",
      topics: {
        RENT: { score: 4, carriedForward: false, positions: { OWNER: "C", COOP: "C" } },
        TERM: { score: 1, carriedForward: false, positions: { OWNER: "unclear", COOP: "not-stated" } },
      },
    });
    expect(consensusLabelSchema.parse(label)).toEqual(label);
    expect(checkConsensusLabel(label!, scenario, null)).toEqual([]);
  });

  it("ignores values the scenario cannot hold", () => {
    const start = initConsensusForm(config, null);
    const after = run(
      start,
      { type: "setPosition", topicId: "TERM", partyId: "OWNER", position: "C" }, // TERM has only A and B
      { type: "setPosition", topicId: "RENT", partyId: "NOBODY", position: "A" },
      { type: "setScore", topicId: "RENT", score: 6 },
      { type: "setScore", topicId: "NOPE", score: 3 },
    );
    expect(after.topics).toEqual(start.topics);
  });

  it("loads a saved draft, dropping what no longer fits, and focuses the first unfinished topic", () => {
    const state = initConsensusForm(config, {
      kind: "consensus-snippet",
      topics: {
        RENT: { score: 3, carriedForward: false, positions: { OWNER: "A", COOP: "B" } },
        TERM: { score: 9, carriedForward: false, positions: { OWNER: "Z", COOP: "A" } },
      },
    });
    expect(state.topics.TERM).toEqual({
      score: null,
      positions: { OWNER: null, COOP: "A" },
      carriedForward: false,
      beforeCarry: null,
    });
    expect(state.focusedTopic).toBe(1);
    expect(state.activeParty).toBe(0);
  });

  it("carries a topic forward from the annotator's previous label, passes the server check, and undoes", () => {
    const start = run(initConsensusForm(config, null), { type: "setScore", topicId: "TERM", score: 2 });
    const carried = consensusFormReducer(start, {
      type: "toggleCarryForward",
      topicId: "TERM",
      previous: previousLabel,
    });
    expect(carried.topics.TERM).toMatchObject({
      score: 4,
      carriedForward: true,
      positions: { OWNER: "B", COOP: "not-stated" },
    });
    const full = run(
      carried,
      { type: "setPosition", topicId: "RENT", partyId: "OWNER", position: "A" },
      { type: "setPosition", topicId: "RENT", partyId: "COOP", position: "A" },
      { type: "setScore", topicId: "RENT", score: 5 },
    );
    const label = toConsensusLabel(full)!;
    expect(label.topics.TERM).toEqual({
      score: 4,
      carriedForward: true,
      positions: { OWNER: "B", COOP: "not-stated" },
    });
    expect(checkConsensusLabel(label, scenario, previousLabel)).toEqual([]);

    const undone = consensusFormReducer(carried, {
      type: "toggleCarryForward",
      topicId: "TERM",
      previous: previousLabel,
    });
    expect(undone.topics.TERM).toEqual(start.topics.TERM);
  });

  it("stops calling a topic carried forward once its score is changed by hand", () => {
    const carried = consensusFormReducer(initConsensusForm(config, null), {
      type: "toggleCarryForward",
      topicId: "RENT",
      previous: previousLabel,
    });
    const edited = consensusFormReducer(carried, { type: "setScore", topicId: "RENT", score: 3 });
    expect(edited.topics.RENT).toMatchObject({
      score: 3,
      carriedForward: false,
      beforeCarry: null,
      positions: { OWNER: "B", COOP: "A" },
    });
  });

  it("refuses carry-forward without a previous label", () => {
    const start = initConsensusForm(config, null);
    expect(consensusFormReducer(start, { type: "toggleCarryForward", topicId: "RENT", previous: null })).toBe(start);
    const result = consensusKeyResult(start, { key: "r" }, null);
    expect(result).toEqual({ kind: "refused", announce: expect.stringContaining("no label on the preceding snippet") });
  });

  it("on a submit attempt with gaps, focuses the first unfinished topic and its first unset party", () => {
    const state = run(
      initConsensusForm(config, null),
      { type: "setPosition", topicId: "RENT", partyId: "OWNER", position: "A" },
      { type: "setPosition", topicId: "RENT", partyId: "COOP", position: "A" },
      { type: "setScore", topicId: "RENT", score: 5 },
      { type: "setPosition", topicId: "TERM", partyId: "OWNER", position: "A" },
      { type: "focusTopic", index: 0 },
      { type: "attemptSubmit" },
    );
    expect(state).toMatchObject({ attempted: true, focusedTopic: 1, activeParty: 1 });
    expect(state.focusRequest).toBe(1);
  });
});

describe("consensus keyboard", () => {
  it("labels a whole snippet from the keyboard: letters for positions, digits for scores, j to move on", () => {
    const state = press(initConsensusForm(config, null), ["c", "c", "4", "j", "u", "n", "1"]);
    expect(toConsensusLabel(state)).toEqual({
      kind: "consensus-snippet",
      topics: {
        RENT: { score: 4, carriedForward: false, positions: { OWNER: "C", COOP: "C" } },
        TERM: { score: 1, carriedForward: false, positions: { OWNER: "unclear", COOP: "not-stated" } },
      },
    });
  });

  it("addresses a third party with the party cursor and ] / [ or the arrows", () => {
    const three = initConsensusForm(formConfigOf(threeParties), null);
    const state = press(three, ["a", "b", "c"]);
    expect(state.topics.RENT.positions).toEqual({ OWNER: "A", COOP: "B", TOWN: "C" });
    expect(state.activeParty).toBe(2); // the cursor stays on the last party
    expect(press(state, ["[", "a"]).topics.RENT.positions).toEqual({ OWNER: "A", COOP: "A", TOWN: "C" });
    expect(press(state, ["ArrowLeft", "ArrowLeft", "b"]).topics.RENT.positions).toEqual({
      OWNER: "B",
      COOP: "B",
      TOWN: "C",
    });
    expect(press(three, ["]", "]", "]"]).activeParty).toBe(2);
  });

  it("refuses an option letter the focused topic does not have", () => {
    const state = consensusFormReducer(initConsensusForm(config, null), { type: "moveTopic", delta: 1 });
    expect(consensusKeyResult(state, { key: "c" }, null)).toEqual({
      kind: "refused",
      announce: "Lease length has no option C (options A, B).",
    });
  });

  it("carries forward with r, and r again undoes", () => {
    const once = press(initConsensusForm(config, null), ["r"], previousLabel);
    expect(once.topics.RENT).toMatchObject({ carriedForward: true, score: 2 });
    const twice = press(once, ["r"], previousLabel);
    expect(twice.topics.RENT).toMatchObject({ carriedForward: false, score: null });
  });

  it("moves between topics within bounds and asks for DOM focus", () => {
    const start = initConsensusForm(config, null);
    const down = press(start, ["j", "j", "ArrowDown"]);
    expect(down.focusedTopic).toBe(1);
    expect(down.focusRequest).toBe(3);
    expect(press(down, ["k", "ArrowUp"]).focusedTopic).toBe(0);
  });

  it("maps UI commands and leaves unbound keys alone", () => {
    const state = initConsensusForm(config, null);
    expect(consensusKeyResult(state, { key: "Enter", ctrlKey: true }, null)).toEqual({ kind: "ui", command: "submit" });
    expect(consensusKeyResult(state, { key: "Enter", metaKey: true }, null)).toEqual({ kind: "ui", command: "submit" });
    expect(consensusKeyResult(state, { key: "?", shiftKey: true }, null)).toEqual({
      kind: "ui",
      command: "toggleCheatSheet",
    });
    expect(consensusKeyResult(state, { key: "i" }, null)).toEqual({ kind: "ui", command: "toggleBackground" });
    expect(consensusKeyResult(state, { key: "m" }, null)).toEqual({ kind: "ui", command: "toggleGuidelines" });
    expect(consensusKeyResult(state, { key: "Enter" }, null)).toBeNull();
    expect(consensusKeyResult(state, { key: "a", ctrlKey: true }, null)).toBeNull(); // Ctrl+A stays "select all"
    expect(consensusKeyResult(state, { key: "z" }, null)).toBeNull();
  });

  it("binds every key once, and every option letter A–H the bundle format allows", () => {
    const keys = CONSENSUS_SHORTCUTS.flatMap((s) => s.keys);
    expect(new Set(keys).size).toBe(keys.length);
    expect(CONSENSUS_SHORTCUTS.find((s) => s.command === "option")?.keys).toEqual([
      "a",
      "b",
      "c",
      "d",
      "e",
      "f",
      "g",
      "h",
    ]);
  });
});

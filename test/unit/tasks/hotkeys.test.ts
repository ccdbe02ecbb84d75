/**
 * An annotator's own keys (app/domain/hotkeys.ts): how written keys are read, what a settings form may bind (known
 * commands, one command per key within a task type, no keys the browser keeps, positional commands complete), and
 * that the task code follows the bound keys: the consensus score and option by place, the A/B choice, the keys
 * allowed to wait while the next item loads.
 */
import { describe, expect, it } from "vitest";
import { mayQueueFor } from "../../../app/components/tasks/queued-keys.ts";
import {
  bindShortcuts,
  pageShortcutTable,
  parseKeyName,
  readKeyBindings,
  reservedKey,
  writtenKeys,
} from "../../../app/domain/hotkeys.ts";
import { keyName } from "../../../app/domain/shortcuts.ts";
import { AB_SHORTCUTS, abCommandFor } from "../../../app/task-types/ab-reactiveness/ab-task-state.ts";
import { AB_REACTIVENESS } from "../../../app/task-types/ab-reactiveness/label.ts";
import {
  CONSENSUS_SHORTCUTS,
  consensusKeyResult,
  initConsensusForm,
} from "../../../app/task-types/consensus-snippet/consensus-form-state.ts";
import { CONSENSUS_SNIPPET } from "../../../app/task-types/consensus-snippet/label.ts";
import { TASK_TYPE_IDS } from "../../../app/task-types/registry.ts";

/** Every default key of a type, as the settings form shows them: a form that changes nothing. */
const defaultsForm = (kind: (typeof TASK_TYPE_IDS)[number]) =>
  Object.fromEntries(
    pageShortcutTable(kind).flatMap((s) => (s.fixed ? [] : [[`keys.${s.command}`, writtenKeys(s.keys)]])),
  );

describe("written key names", () => {
  it("reads keys as a key press names them, and nothing else", () => {
    expect(parseKeyName("j")).toBe("j");
    expect(parseKeyName("?")).toBe("?");
    expect(parseKeyName("X")).toBe("Shift+x");
    expect(parseKeyName("shift+x")).toBe("Shift+x");
    expect(parseKeyName("ctrl+enter")).toBe("Mod+Enter");
    expect(parseKeyName("Cmd+Enter")).toBe("Mod+Enter");
    expect(parseKeyName("Ctrl+Alt+k")).toBe("Mod+Alt+k");
    expect(parseKeyName("space")).toBe("Space");
    expect(parseKeyName("Down")).toBe("ArrowDown");
    expect(parseKeyName("esc")).toBe("Escape");
    expect(parseKeyName("f2")).toBe("F2");
    expect(parseKeyName("Ctrl++")).toBe("Mod++");
    // Each agrees with what the key press itself is called.
    expect(parseKeyName("Ctrl+Enter")).toBe(keyName({ key: "Enter", ctrlKey: true }));
    expect(parseKeyName("X")).toBe(keyName({ key: "X", shiftKey: true }));
    expect(parseKeyName("Shift+ArrowDown")).toBe(keyName({ key: "ArrowDown", shiftKey: true }));
    for (const nonsense of ["", "Shift", "Ctrl+", "jk", "Shift+1", "Hyper+j", "F13"])
      expect(parseKeyName(nonsense), nonsense).toBeNull();
  });

  it("writes keys the way it reads them back", () => {
    for (const spec of [...AB_SHORTCUTS, ...CONSENSUS_SHORTCUTS])
      expect(writtenKeys(spec.keys).split(" ").map(parseKeyName)).toEqual(spec.keys);
  });

  it("leaves the browser's keys and focus movement alone, not the task's own Ctrl/⌘ keys", () => {
    for (const key of ["Tab", "Shift+Tab", "F5", "F12", "Mod+w", "Mod+b", "Mod+c", "Mod+1", "Mod+=", "Alt+ArrowLeft"])
      expect(reservedKey(key), key).not.toBeNull();
    for (const key of ["Mod+Enter", "Mod+z", "Mod+ArrowDown", "j", "Enter", "Shift+Enter", "Space", "Alt+j", "?"])
      expect(reservedKey(key), key).toBeNull();
  });
});

describe("a settings form's keys for one task type", () => {
  it("the defaults as posted store nothing; a change stores only itself", () => {
    for (const kind of TASK_TYPE_IDS)
      expect(readKeyBindings(kind, defaultsForm(kind))).toEqual({ overrides: {}, problems: [] });
    const form = {
      ...defaultsForm(AB_REACTIVENESS),
      "keys.chooseA": "q",
      "keys.chooseB": "w",
      "keys.submit": "x Ctrl+Enter",
    };
    expect(readKeyBindings(AB_REACTIVENESS, form)).toEqual({
      overrides: { chooseA: ["q"], chooseB: ["w"], submit: ["x", "Mod+Enter"] },
      problems: [],
    });
  });

  it("refuses a key bound to two commands, at both fields, and stores nothing", () => {
    const form = { ...defaultsForm(AB_REACTIVENESS), "keys.chooseA": "q", "keys.chooseB": "q" };
    const { overrides, problems } = readKeyBindings(AB_REACTIVENESS, form);
    expect(overrides).toEqual({});
    expect(problems.map((p) => p.path).sort()).toEqual(["keys.chooseA", "keys.chooseB"]);
    expect(problems[0].message).toMatch(
      /^q is also the key of "Choose conversation [AB]": a key can do one thing only\.$/,
    );
  });

  it("refuses a clash with an item action and with the fixed Escape", () => {
    const skip = readKeyBindings(CONSENSUS_SNIPPET, { ...defaultsForm(CONSENSUS_SNIPPET), "keys.skip": "j" });
    expect(skip.problems.map((p) => p.path).sort()).toEqual(["keys.nextTopic", "keys.skip"]);
    const esc = readKeyBindings(CONSENSUS_SNIPPET, { ...defaultsForm(CONSENSUS_SNIPPET), "keys.flag": "Esc" });
    expect(esc.problems).toEqual([
      { path: "keys.flag", message: 'Esc is also the key of "Close this list": a key can do one thing only.' },
    ]);
  });

  it("names the field and what is wrong with it", () => {
    const problemsOf = (fields: Record<string, string>) =>
      readKeyBindings(CONSENSUS_SNIPPET, { ...defaultsForm(CONSENSUS_SNIPPET), ...fields }).problems;
    expect(problemsOf({ "keys.unclear": "" })).toEqual([
      { path: "keys.unclear", message: "Give at least one key (default: u)." },
    ]);
    expect(problemsOf({ "keys.unclear": "uu" })[0].message).toMatch(/^"uu" is not a key name: write keys like/);
    expect(problemsOf({ "keys.unclear": "Ctrl+w" })).toEqual([
      {
        path: "keys.unclear",
        message: "Ctrl/⌘ + w is the browser's (copy, find, new tab, close…): choose another key.",
      },
    ]);
    expect(problemsOf({ "keys.unclear": "Tab" })[0].message).toBe(
      "Tab moves between the page's controls: choose another key.",
    );
    expect(problemsOf({ "keys.unclear": "u u" })[0].message).toBe("u is given twice.");
    expect(problemsOf({ "keys.score": "6 7 8" })).toEqual([
      {
        path: "keys.score",
        message: "Give exactly 5 keys, one for each value in order (default: 1 2 3 4 5); you gave 3.",
      },
    ]);
    expect(problemsOf({ "keys.nextTopic": "j ArrowDown Space Enter x" })[0].message).toBe(
      "Give at most 4 keys; you gave 5.",
    );
    expect(problemsOf({ "keys.teleport": "t" })).toEqual([
      { path: "keys.teleport", message: '"teleport" is not a command of this task.' },
    ]);
    expect(problemsOf({ "keys.closeOverlay": "q" })).toEqual([
      { path: "keys.closeOverlay", message: '"Close this list" keeps its key.' },
    ]);
  });
});

describe("the task code follows the bound keys", () => {
  it("A/B: the choice and submit keys move; the old keys do nothing", () => {
    const bound = bindShortcuts(AB_SHORTCUTS, { chooseA: ["q"], chooseB: ["w"], submit: ["x"] });
    expect(abCommandFor({ key: "q" }, bound)).toBe("chooseA");
    expect(abCommandFor({ key: "w" }, bound)).toBe("chooseB");
    expect(abCommandFor({ key: "x" }, bound)).toBe("submit");
    for (const old of ["1", "2", "a", "b", "Enter"]) expect(abCommandFor({ key: old }, bound), old).toBeNull();
    // The default table is untouched.
    expect(abCommandFor({ key: "1" })).toBe("chooseA");
  });

  it("consensus: a score or an option is the key's place among its command's keys", () => {
    const config = {
      topics: [{ id: "PRICE", name: "Price", optionLabels: ["A", "B", "C"] }],
      parties: [
        { id: "S", name: "Seller" },
        { id: "B", name: "Buyer" },
      ],
    };
    const state = initConsensusForm(config, null);
    const bound = bindShortcuts(CONSENSUS_SHORTCUTS, {
      score: ["Alt+1", "Alt+2", "Alt+3", "Alt+4", "Alt+5"],
      option: ["z", "x", "c", "v", "b", "n", "l", "o"],
    });
    expect(consensusKeyResult(state, { key: "3", altKey: true }, null, bound)).toMatchObject({
      kind: "form",
      action: { type: "setScore", topicId: "PRICE", score: 3 },
    });
    expect(consensusKeyResult(state, { key: "x" }, null, bound)).toMatchObject({
      action: { type: "setPosition", partyId: "S", position: "B" },
    });
    expect(consensusKeyResult(state, { key: "v" }, null, bound)).toEqual({
      kind: "refused",
      announce: "Price has no option D (options A, B, C).",
    });
    expect(consensusKeyResult(state, { key: "3" }, null, bound)).toBeNull();
    // A stored positional binding of the wrong length is not used.
    expect(bindShortcuts(CONSENSUS_SHORTCUTS, { score: ["q"] })).toEqual(CONSENSUS_SHORTCUTS);
  });

  it("keys typed while the next item loads are judged by the command they are bound to", () => {
    const press = (key: string) => ({ key });
    const overrides = { toggleGuidelines: ["1"], chooseA: ["g"], undo: ["u"] };
    expect(mayQueueFor(AB_REACTIVENESS, press("1"), overrides)).toBe(true);
    expect(mayQueueFor(AB_REACTIVENESS, press("g"), overrides)).toBe(false);
    expect(mayQueueFor(AB_REACTIVENESS, press("u"), overrides)).toBe(true);
    expect(mayQueueFor(AB_REACTIVENESS, press("1"))).toBe(false);
  });
});

/**
 * Issue 28: which keys typed while the next item loads may act on it once it is on screen. Moving
 * around and the reading aids queue; anything that answers (a choice, a score, a position, carry-
 * forward, a submit, a skip, a flag) or that no table names is dropped.
 */
import { describe, expect, it } from "vitest";
import { mayQueueFor } from "../../../app/components/tasks/queued-keys.ts";
import { AB_REACTIVENESS } from "../../../app/task-types/ab-reactiveness/label.ts";
import { CONSENSUS_SNIPPET } from "../../../app/task-types/consensus-snippet/label.ts";

const press = (key: string, mods: { ctrlKey?: boolean; shiftKey?: boolean; metaKey?: boolean } = {}) => ({
  key,
  ...mods,
});

describe("keys typed before the item is on screen", () => {
  it("A/B: the choice keys and Enter are dropped; guidelines, the shortcut list, Escape, Tab and undo queue", () => {
    for (const key of ["1", "2", "a", "b", "Enter"]) expect(mayQueueFor(AB_REACTIVENESS, press(key)), key).toBe(false);
    expect(mayQueueFor(AB_REACTIVENESS, press("Enter", { ctrlKey: true }))).toBe(false);
    expect(mayQueueFor(AB_REACTIVENESS, press("Enter", { metaKey: true }))).toBe(false);
    for (const key of ["g", "m", "?", "Escape", "Tab"])
      expect(mayQueueFor(AB_REACTIVENESS, press(key)), key).toBe(true);
    expect(mayQueueFor(AB_REACTIVENESS, press("Tab", { shiftKey: true }))).toBe(true);
    expect(mayQueueFor(AB_REACTIVENESS, press("z", { ctrlKey: true }))).toBe(true);
  });

  it("consensus: scores, option letters, unclear, not stated, carry-forward and Ctrl/⌘+Enter are dropped; moving and reading aids queue", () => {
    for (const key of ["1", "3", "5", "a", "g", "h", "u", "n", "r"])
      expect(mayQueueFor(CONSENSUS_SNIPPET, press(key)), key).toBe(false);
    expect(mayQueueFor(CONSENSUS_SNIPPET, press("Enter", { ctrlKey: true }))).toBe(false);
    for (const key of [
      "j",
      "k",
      "ArrowDown",
      "ArrowUp",
      "]",
      "[",
      "ArrowLeft",
      "ArrowRight",
      "i",
      "m",
      "?",
      "Escape",
    ]) {
      expect(mayQueueFor(CONSENSUS_SNIPPET, press(key)), key).toBe(true);
    }
  });

  it("skip and flag decide about the unseen item, so they are dropped on both task types, and so is any key no table names", () => {
    for (const kind of [AB_REACTIVENESS, CONSENSUS_SNIPPET]) {
      expect(mayQueueFor(kind, press("s"))).toBe(false);
      expect(mayQueueFor(kind, press("!"))).toBe(false);
      for (const key of [" ", "x", "Delete", "Backspace"]) expect(mayQueueFor(kind, press(key)), key).toBe(false);
    }
  });
});

import { afterEach, describe, expect, it, vi } from "vitest";
import { AB_SHORTCUTS, abCommandFor, abProblems } from "../../../app/task-types/ab-reactiveness/ab-task-state.ts";
import { DebouncedSaver } from "../../../app/components/tasks/autosave.ts";
import { compactKeys } from "../../../app/components/tasks/ShortcutCheatSheet.tsx";
import {
  displayKey,
  handledElsewhere,
  isActivatableTarget,
  isTypingTarget,
  keyName,
} from "../../../app/domain/shortcuts.ts";
import { VisibleClock } from "../../../app/components/tasks/time-on-task.ts";

/** Just enough of a DOM element for the target checks. */
const element = (tagName: string, attrs: Record<string, string> = {}, extra: Record<string, unknown> = {}) =>
  ({
    tagName: tagName.toUpperCase(),
    getAttribute: (name: string) => attrs[name] ?? null,
    ...extra,
  }) as unknown as EventTarget;

describe("key names", () => {
  it("names keys independent of modifier spelling and caps", () => {
    expect(keyName({ key: "J" })).toBe("j");
    expect(keyName({ key: "J", shiftKey: true })).toBe("Shift+j");
    expect(keyName({ key: "?", shiftKey: true })).toBe("?");
    expect(keyName({ key: "Enter", ctrlKey: true })).toBe("Mod+Enter");
    expect(keyName({ key: "Enter", metaKey: true })).toBe("Mod+Enter");
    expect(keyName({ key: "ArrowDown", shiftKey: true })).toBe("Shift+ArrowDown");
    expect(keyName({ key: " " })).toBe("Space");
    expect(keyName({ key: "å", altKey: true })).toBe("Alt+å");
    expect(displayKey("Mod+Enter")).toBe("Ctrl/⌘ + Enter");
    expect(compactKeys(["1", "2", "3", "4", "5"])).toEqual(["1–5"]);
    expect(compactKeys(["j", "ArrowDown"])).toEqual(["j", "ArrowDown"]);
  });

  it("treats text fields as typing and buttons, radios and checkboxes as not", () => {
    expect(isTypingTarget(element("textarea"))).toBe(true);
    expect(isTypingTarget(element("select"))).toBe(true);
    expect(isTypingTarget(element("input", {}, { type: "text" }))).toBe(true);
    expect(isTypingTarget(element("input", {}, { type: "search" }))).toBe(true);
    expect(isTypingTarget(element("input", {}, { type: "checkbox" }))).toBe(false);
    expect(isTypingTarget(element("div", {}, { isContentEditable: true }))).toBe(true);
    expect(isTypingTarget(element("button", { role: "radio" }))).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });

  it("lets Enter through Radix radios but respects other handled keys", () => {
    const radio = element("button", { role: "radio" });
    expect(handledElsewhere({ key: "Enter", defaultPrevented: true, target: radio })).toBe(false);
    expect(handledElsewhere({ key: "ArrowLeft", defaultPrevented: true, target: radio })).toBe(true);
    expect(handledElsewhere({ key: "j", defaultPrevented: false, isComposing: true, target: null })).toBe(true);
    expect(isActivatableTarget(radio)).toBe(false);
    expect(isActivatableTarget(element("button"))).toBe(true);
    expect(isActivatableTarget(element("a"))).toBe(true);
  });
});

describe("A/B keys", () => {
  it("chooses with 1/2 (or a/b) and submits with Enter except on buttons and links", () => {
    expect(abCommandFor({ key: "1" })).toBe("chooseA");
    expect(abCommandFor({ key: "2" })).toBe("chooseB");
    expect(abCommandFor({ key: "b" })).toBe("chooseB");
    expect(abCommandFor({ key: "Enter", target: element("button", { role: "radio" }) })).toBe("submit");
    expect(abCommandFor({ key: "Enter", target: element("body") })).toBe("submit");
    expect(abCommandFor({ key: "Enter", target: element("button") })).toBeNull();
    expect(abCommandFor({ key: "Enter", ctrlKey: true, target: element("button") })).toBe("submit");
    expect(abCommandFor({ key: "3" })).toBeNull();
    const keys = AB_SHORTCUTS.flatMap((s) => s.keys);
    expect(new Set(keys).size).toBe(keys.length);
    expect(abProblems(null)).toEqual([{ path: "choice", message: "Choose conversation A or B before submitting." }]);
    expect(abProblems("A")).toEqual([]);
  });
});

describe("DebouncedSaver", () => {
  afterEach(() => vi.useRealTimers());

  it("saves the last value once after the delay, skips values equal to the stored one, flushes and cancels", () => {
    vi.useFakeTimers();
    const saved: unknown[] = [];
    const saver = new DebouncedSaver<{ n: number }>((v) => saved.push(v), 800, { n: 0 });
    saver.schedule({ n: 0 }); // equal to the baseline: nothing to do
    expect(saver.isPending).toBe(false);
    saver.schedule({ n: 1 });
    vi.advanceTimersByTime(500);
    saver.schedule({ n: 2 });
    vi.advanceTimersByTime(799);
    expect(saved).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(saved).toEqual([{ n: 2 }]);

    saver.schedule({ n: 2 }); // already stored
    saver.schedule({ n: 3 });
    saver.flush(); // e.g. the tab was hidden
    expect(saved).toEqual([{ n: 2 }, { n: 3 }]);
    vi.advanceTimersByTime(2000);
    expect(saved).toHaveLength(2);

    saver.schedule({ n: 4 });
    saver.cancel(); // submitted: the draft is stale
    vi.advanceTimersByTime(2000);
    saver.flush();
    expect(saved).toHaveLength(2);

    saver.schedule({ n: 5 });
    saver.schedule({ n: 3 }); // back to what is stored
    vi.advanceTimersByTime(2000);
    expect(saved).toHaveLength(2);
  });
});

describe("VisibleClock", () => {
  it("counts only visible time and restarts on reset", () => {
    const clock = new VisibleClock(1000, true);
    expect(clock.elapsedMs(4000)).toBe(3000);
    clock.setVisible(false, 5000);
    expect(clock.elapsedMs(60_000)).toBe(4000);
    clock.setVisible(false, 61_000); // already hidden: no change
    clock.setVisible(true, 70_000);
    clock.setVisible(true, 71_000); // already visible: keeps the earlier start
    expect(clock.elapsedMs(72_000)).toBe(6000);
    clock.reset(80_000, false);
    expect(clock.elapsedMs(90_000)).toBe(0);
    expect(new VisibleClock(0, false).elapsedMs(5000)).toBe(0);
  });
});

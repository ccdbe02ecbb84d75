import { describe, expect, it } from "vitest";
import {
  formatDuration,
  parseSessionEntries,
  recordSessionItem,
  sessionFigures,
} from "../../../app/components/tasks/session-stats.ts";

describe("session statistics on the task page", () => {
  it("counts each item once, the latest submit's time replacing an earlier one", () => {
    let entries = recordSessionItem([], 4, 30);
    entries = recordSessionItem(entries, 5, 50);
    entries = recordSessionItem(entries, 4, 10);
    expect(entries).toEqual([
      { itemId: 5, seconds: 50 },
      { itemId: 4, seconds: 10 },
    ]);
  });

  it("takes the median (odd and even counts) and multiplies it by the items left", () => {
    const three = recordSessionItem(recordSessionItem(recordSessionItem([], 1, 12), 2, 40), 3, 20);
    expect(sessionFigures(three, 5)).toEqual({ items: 3, medianSeconds: 20, secondsLeft: 100 });
    const four = recordSessionItem(three, 9, 100);
    expect(sessionFigures(four, 2)).toEqual({ items: 4, medianSeconds: 30, secondsLeft: 60 });
  });

  it("has no median and no estimate before the first submit", () => {
    expect(sessionFigures([], 10)).toEqual({ items: 0, medianSeconds: null, secondsLeft: null });
  });

  it("reads back what it stored and drops malformed storage", () => {
    const stored = JSON.stringify(recordSessionItem([], 7, 12.5));
    expect(parseSessionEntries(stored)).toEqual([{ itemId: 7, seconds: 12.5 }]);
    expect(parseSessionEntries("not json")).toEqual([]);
    expect(parseSessionEntries('{"itemId":1}')).toEqual([]);
    expect(
      parseSessionEntries('[{"itemId":1,"seconds":-3},{"itemId":"x","seconds":2},{"itemId":2,"seconds":4}]'),
    ).toEqual([{ itemId: 2, seconds: 4 }]);
    expect(parseSessionEntries(null)).toEqual([]);
  });

  it("formats durations in whole units", () => {
    expect(formatDuration(40.4)).toBe("40 s");
    expect(formatDuration(179)).toBe("3 min");
    expect(formatDuration(3900)).toBe("1 h 05 min");
  });
});

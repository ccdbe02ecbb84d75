// Study progress: complete / in progress / open and per-annotator counts and median seconds.
import { describe, expect, it } from "vitest";
import { median, studyProgress } from "../../../app/domain/validation/index.ts";

describe("studyProgress", () => {
  const items = [{ itemId: 1 }, { itemId: 2 }, { itemId: 3 }, { itemId: 4 }, { itemId: 5, isGold: true }];
  const labels = [
    { itemId: 1, annotatorId: "a", secondsOnTask: 30 },
    { itemId: 1, annotatorId: "b", secondsOnTask: 50 },
    { itemId: 2, annotatorId: "a", secondsOnTask: 10 },
    { itemId: 5, annotatorId: "a", secondsOnTask: 100 },
    { itemId: 5, annotatorId: "b", secondsOnTask: null },
  ];
  const leases = [{ itemId: 3, annotatorId: "c" }];

  it("counts items with k labels as complete, started ones as in progress, the rest open", () => {
    const p = studyProgress(items, labels, leases, 2);
    // Complete: 1, 5 (two labels each). In progress: 2 (one label), 3 (a lease). Open: 4.
    expect(p).toMatchObject({ labelsPerItem: 2, items: 5, complete: 2, inProgress: 2, open: 1, labels: 5 });
    expect(p.annotators).toEqual([
      { annotatorId: "a", labels: 3, goldLabels: 1, activeLeases: 0, medianSeconds: 30, timedLabels: 3 },
      { annotatorId: "b", labels: 2, goldLabels: 1, activeLeases: 0, medianSeconds: 50, timedLabels: 1 },
      { annotatorId: "c", labels: 0, goldLabels: 0, activeLeases: 1, medianSeconds: null, timedLabels: 0 },
    ]);
    expect(studyProgress(items, labels, leases, 3)).toMatchObject({ complete: 0, inProgress: 4, open: 1 });
  });

  it("takes the median of the middle two for an even count", () => {
    expect(median([10, 40, 20, 30])).toBe(25);
    expect(median([3])).toBe(3);
    expect(median([])).toBeNull();
  });

  it("names bad rows", () => {
    expect(() => studyProgress(items, labels, leases, 0)).toThrow(/labels per item/);
    expect(() => studyProgress(items, [{ itemId: 9, annotatorId: "a", secondsOnTask: 1 }], [], 2)).toThrow(
      /labels\[0\]: item 9/,
    );
    expect(() => studyProgress(items, [], [{ itemId: 9, annotatorId: "a" }], 2)).toThrow(/leases\[0\]: item 9/);
    expect(() => studyProgress(items, [{ itemId: 1, annotatorId: "a", secondsOnTask: -5 }], [], 2)).toThrow(
      /secondsOnTask must be ≥ 0/,
    );
  });
});

import { describe, expect, it } from "vitest";
import { historyRevisions } from "../../../app/domain/label-review/history.ts";
import { summariseAnswer } from "../../../app/domain/label-review/summary.ts";
import { consensus, SCENARIO } from "./fixtures.ts";

const stored = (revision: number, score: number, fromSite = true) => ({
  revision,
  createdAt: `2026-01-0${revision}T10:00:00.000Z`,
  secondsOnTask: 30,
  fromSite,
  summary: summariseAnswer(consensus({ score, ten: "A", own: "A" }), SCENARIO),
});

describe("label history", () => {
  it("lists revisions newest first, marks the latest, and compares each with the one before", () => {
    const revisions = historyRevisions([stored(1, 2), stored(3, 5), stored(2, 4)], "You");
    expect(revisions.map((r) => r.revision)).toEqual([3, 2, 1]);
    expect(revisions.map((r) => r.latest)).toEqual([true, false, false]);
    expect(revisions.map((r) => r.changes.map((c) => c.text))).toEqual([
      ["Monthly rent: score 4 → 5"],
      ["Monthly rent: score 2 → 4"],
      [],
    ]);
  });

  it("says who saved each revision and how", () => {
    const [imported, site] = historyRevisions([stored(1, 2, true), stored(2, 2, false)], "Ada");
    expect(site.who).toBe("Ada, on the task page");
    expect(imported.who).toBe("Ada, from the crowd platform's results");
  });
});

import { describe, expect, it } from "vitest";
import { revisionChanges } from "../../../app/domain/label-review/diff.ts";
import { summariseAnswer } from "../../../app/domain/label-review/summary.ts";
import { consensus, SCENARIO } from "./fixtures.ts";

const words = (label: Parameters<typeof summariseAnswer>[0]) => summariseAnswer(label, SCENARIO, "Owner Ben");

describe("revision diff", () => {
  it("a first revision has no changes; an unchanged resubmit has none either", () => {
    const first = words(consensus({ score: 3, ten: "A", own: "B" }));
    expect(revisionChanges(null, first)).toEqual([]);
    expect(revisionChanges(first, words(consensus({ score: 3, ten: "A", own: "B" })))).toEqual([]);
  });

  it("names each changed score, carry-forward and position by topic and party, with its payload path", () => {
    const before = words(consensus({ score: 3, ten: "A", own: "B" }));
    const after = words(consensus({ score: 4, ten: "B", own: "B", carried: true }));
    expect(revisionChanges(before, after)).toEqual([
      { path: "topics.RENT.score", text: "Monthly rent: score 3 → 4" },
      { path: "topics.RENT.carriedForward", text: "Monthly rent: not carried forward → carried forward" },
      {
        path: "topics.RENT.positions.TEN",
        text: "Monthly rent, Tenant Ada: A · Keep the rent where it is → B · Raise the rent by five percent from…",
      },
    ]);
  });

  it("an A/B revision names the choice that changed", () => {
    const a = words({ kind: "ab-reactiveness", choice: "A" });
    const b = words({ kind: "ab-reactiveness", choice: "B" });
    expect(revisionChanges(a, b)).toEqual([{ path: "choice", text: "Choice: conversation A → conversation B" }]);
    expect(revisionChanges(b, b)).toEqual([]);
  });
});

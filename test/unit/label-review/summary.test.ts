import { describe, expect, it } from "vitest";
import { OPTION_TEXT_LIMIT, shorten, summariseAnswer } from "../../../app/domain/label-review/summary.ts";
import { positionText } from "../../../app/task-types/consensus-snippet/review.ts";
import { consensus, SCENARIO } from "./fixtures.ts";

describe("answer summary", () => {
  it("words a consensus label by topic name, score, and each party's option letter and text", () => {
    const summary = summariseAnswer(consensus({ score: 4, ten: "A", own: "B", carried: true }), SCENARIO);
    expect(summary.kind).toBe("consensus-snippet");
    if (summary.kind !== "consensus-snippet") return;
    expect(summary.topics.map((t) => [t.name, t.score, t.scoreLabel !== "", t.carriedForward])).toEqual([
      ["Monthly rent", 4, true, true],
      ["Pets", 2, true, false],
    ]);
    const rent = summary.topics[0].positions.map((p) => `${p.party}: ${positionText(p)}`);
    expect(rent[0]).toBe("Tenant Ada: A · Keep the rent where it is");
    expect(rent[1]).toMatch(/^Owner Ben: B · Raise the rent by five percent.*…$/);
    expect(summary.topics[0].positions[1].fullText).toBe(
      "Raise the rent by five percent from next spring onwards, in two steps",
    );
    expect(summary.topics[1].positions.map(positionText)).toEqual(["Unclear", "Not stated"]);
  });

  it("keeps topics and parties in the scenario's order, whatever the payload's key order", () => {
    const label = consensus({ score: 3, ten: "B", own: "A" });
    const reordered = { ...label, topics: { PETS: label.topics.PETS, RENT: label.topics.RENT } };
    const summary = summariseAnswer(reordered, SCENARIO);
    expect(summary.kind === "consensus-snippet" && summary.topics.map((t) => t.name)).toEqual(["Monthly rent", "Pets"]);
  });

  it("words an A/B choice with the target party's name and nothing about how the pair was made", () => {
    const summary = summariseAnswer({ kind: "ab-reactiveness", choice: "B" }, SCENARIO, "Owner Ben");
    expect(summary).toEqual({
      kind: "ab-reactiveness",
      choice: "B",
      text: "Conversation B: Owner Ben is the more reactive negotiator",
    });
  });

  it("shortens long option text at a word boundary with an ellipsis, and leaves short text alone", () => {
    expect(shorten("Cats only")).toBe("Cats only");
    const long = shorten("Raise the rent by five percent from next spring onwards, in two steps");
    expect(long.length).toBeLessThanOrEqual(OPTION_TEXT_LIMIT);
    expect(long).toBe("Raise the rent by five percent from…");
    expect(shorten("  several\n spaces  ")).toBe("several spaces");
  });
});

/** The importer's pure rules on small inputs: label styles, party codes, opinion headings, weights. */
import { describe, expect, it } from "vitest";
import { numberedBlocks, parseOptions } from "../../../app/domain/promediate/case-options.ts";
import { significantWords, splitOpinions } from "../../../app/domain/promediate/case-parties.ts";
import { partyCode } from "../../../app/domain/promediate/party-names.ts";
import { rankTopics, rankWeights, weightsFromRanking } from "../../../app/domain/promediate/case-weights.ts";
import { caseBackground } from "../../../app/domain/promediate/case-domain.ts";

describe("option labels", () => {
  it("reads the four label styles as options in written order", () => {
    expect(parseOptions("(a) Open; (b) Dual; (c) Exclusive", 4)?.descriptions).toEqual(["Open", "Dual", "Exclusive"]);
    expect(parseOptions("(A): Expand now.\n(B):Wait a year.", 1)?.descriptions).toEqual([
      "Expand now.",
      "Wait a year.",
    ]);
    expect(parseOptions("Some context.\n(1). Finance's system.\n(2). Sales' system.", 2)).toEqual({
      preamble: "Some context.",
      descriptions: ["Finance's system.", "Sales' system."],
    });
    expect(parseOptions("- Option 3A: Share equally.\n- Option 3B: Darbin pays.", 3)?.descriptions).toEqual([
      "Share equally.",
      "Darbin pays.",
    ]);
  });

  it("skips a label out of order and an Option label of another issue", () => {
    expect(parseOptions("(a) Keep (c) as it is (b) Change", 1)?.descriptions).toEqual(["Keep (c) as it is", "Change"]);
    expect(parseOptions("Option 2A: one\nOption 2B: two", 3)).toBeNull();
    expect(parseOptions("[a] one [b] two", 1)).toBeNull();
  });

  it("splits issues on lines numbered 1, 2, 3 in turn only", () => {
    const blocks = numberedBlocks("1. First: x\n(1). not an issue\n3. skipped\n2) Second\n## Issue 3: Third");
    expect(blocks.map((b) => b.heading)).toEqual(["1. First: x", "2) Second", "## Issue 3: Third"]);
    expect(blocks[0].body).toBe("(1). not an issue\n3. skipped");
  });
});

describe("parties", () => {
  it("codes a name upper-cased, other characters as _, at most 16 characters", () => {
    expect(partyCode("MacNamara")).toBe("MACNAMARA");
    expect(partyCode("Macnamara")).toBe("MACNAMARA");
    expect(partyCode("St. Francis-Board member")).toBe("ST__FRANCIS_BOAR");
  });

  it("finds each topic's heading by its number and its words, not an option line or a priority list", () => {
    const opinions = [
      "### Top priorities:",
      "1. Keep control of auditing.",
      "### 1. Water Prediction and Audit",
      "- First choice: (1D)",
      "B. $800 million is your second choice",
      "### 2. Unused water allocations",
      "- First choice: (2A)",
    ].join("\n");
    const words = [
      significantWords("Water Prediction and Audit of Water Withdrawal"),
      significantWords("Unused Water"),
    ];
    expect(splitOpinions(opinions, words)).toEqual({
      preamble: "### Top priorities: 1. Keep control of auditing.",
      sections: ["- First choice: (1D) B. $800 million is your second choice", "- First choice: (2A)"],
    });
    expect(splitOpinions("ISSUE I: WATER\ntext", words)).toEqual({ missing: 1 });
  });
});

describe("weights", () => {
  it("scales rank-sum points to 10 by largest remainder, at least 1 each", () => {
    // By hand: n=3 points 3,2,1 -> 5, 3.33, 1.67 -> 5, 3, 2; n=5 points 5..1 (15) -> 3.33, 2.67, 2, 1.33, 0.67.
    expect(rankWeights(1)).toEqual([10]);
    expect(rankWeights(2)).toEqual([7, 3]);
    expect(rankWeights(3)).toEqual([5, 3, 2]);
    expect(rankWeights(4)).toEqual([4, 3, 2, 1]);
    expect(rankWeights(5)).toEqual([3, 3, 2, 1, 1]);
    expect(rankWeights(6)).toEqual([3, 2, 2, 1, 1, 1]);
    expect(rankWeights(8)).toEqual([2, 2, 1, 1, 1, 1, 1, 1]);
  });

  it("takes a stated issue ranking first, else emphasis then length", () => {
    const stated = rankTopics("Issue III matters most, then Issue I.", ["a", "bb", "c"]);
    expect(stated).toEqual({ order: [2, 0, 1], rule: "stated-ranking" });
    expect(weightsFromRanking(stated)).toEqual([3, 2, 5]);
    const emphasis = rankTopics("", ["short", "a much longer stretch of prose", "this is your top priority"]);
    expect(emphasis).toEqual({ order: [2, 1, 0], rule: "emphasis" });
  });
});

describe("background", () => {
  it("drops ProMediate's {issues}/{options} slots and the headings that introduce them", () => {
    const text = "## Scenario\nA dispute.\n\n## Key Issues:\n{issues}\n\n## Options:\n{options}\n\nSpeak naturally.";
    expect(caseBackground(text)).toBe("## Scenario\nA dispute.\n\nSpeak naturally.");
  });
});

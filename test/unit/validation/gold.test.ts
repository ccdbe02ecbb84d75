// Gold items: pass/fail at the ±1 boundary, A/B direction, per-annotator accuracy and flags.
import { describe, expect, it } from "vitest";
import { flagAnnotators, goldAccuracy, goldChecks, type GoldLabel } from "../../../app/domain/validation/index.ts";
import { parseConsensusGold } from "../../../app/task-types/consensus-snippet/gold.ts";
import { consensusPayload } from "./fixtures.ts";

const c = (itemId: number, annotatorId: string, scores: Record<string, number>): GoldLabel => ({
  itemId,
  annotatorId,
  payload: consensusPayload(scores),
});
const ab = (itemId: number, annotatorId: string, choice: "A" | "B"): GoldLabel => ({
  itemId,
  annotatorId,
  payload: { kind: "ab-reactiveness", choice },
});

const gold = {
  "consensus-snippet": [{ itemId: 1, reference: { T1: 3, T2: 1 } }],
  "ab-reactiveness": [
    { itemId: 2, levelA: 1, levelB: 1 / 3 },
    { itemId: 3, levelA: 0, levelB: 2 / 3 },
  ],
};

describe("goldChecks", () => {
  it("passes a consensus gold item only when every topic is within ±1", () => {
    const checks = goldChecks(gold, [
      c(1, "a", { T1: 4, T2: 2 }), // +1, +1 → pass
      c(1, "b", { T1: 2, T2: 1 }), // −1, 0 → pass
      c(1, "c", { T1: 5, T2: 1 }), // +2 on T1 → fail
      c(1, "d", { T1: 3, T2: 3 }), // +2 on T2 → fail
      c(1, "e", { T1: 3 }), // T2 unscored → fail
      c(9, "a", { T1: 1 }), // not a gold item → ignored
    ]);
    expect(checks.map((x) => [x.annotatorId, x.passed])).toEqual([
      ["a", true],
      ["b", true],
      ["c", false],
      ["d", false],
      ["e", false],
    ]);
    // A tighter tolerance turns the ±1 answers into failures.
    expect(
      goldChecks(gold, [c(1, "a", { T1: 4, T2: 2 }), c(1, "f", { T1: 3, T2: 1 })], { tolerance: 0 }).map(
        (x) => x.passed,
      ),
    ).toEqual([false, true]);
  });

  it("passes an A/B gold item when the choice names the higher level", () => {
    const checks = goldChecks(gold, [ab(2, "a", "A"), ab(2, "b", "B"), ab(3, "a", "B"), ab(3, "b", "B")]);
    expect(checks.map((x) => [x.itemId, x.annotatorId, x.passed])).toEqual([
      [2, "a", true],
      [2, "b", false],
      [3, "a", true],
      [3, "b", true],
    ]);
  });

  it("rejects a label of the wrong kind and an A/B gold item with equal levels", () => {
    expect(() => goldChecks(gold, [ab(1, "a", "A")])).toThrow(
      /labels\[0\] \(annotator a, item 1\): a consensus gold item has a "ab-reactiveness" label/,
    );
    expect(() => goldChecks(gold, [c(2, "a", { T1: 3 })])).toThrow(/an A\/B gold item has a "consensus-snippet" label/);
    expect(() => goldChecks({ "ab-reactiveness": [{ itemId: 5, levelA: 1, levelB: 1 }] }, [])).toThrow(
      /two different finite levels/,
    );
  });
});

describe("goldAccuracy and flagAnnotators", () => {
  const labels = [
    c(1, "a", { T1: 3, T2: 1 }),
    ab(2, "a", "A"),
    ab(3, "a", "A"), // a: 2 of 3
    c(1, "b", { T1: 1, T2: 5 }),
    ab(2, "b", "B"), // b: 0 of 2
    ab(3, "z", "A"), // z: 0 of 1
    c(1, "y", { T1: 3, T2: 2 }),
    ab(2, "y", "A"),
    ab(3, "y", "B"), // y: 3 of 3
  ];

  it("counts attempts and passes per annotator", () => {
    expect(goldAccuracy(gold, labels)).toEqual([
      { annotatorId: "a", attempted: 3, passed: 2, accuracy: 2 / 3 },
      { annotatorId: "b", attempted: 2, passed: 0, accuracy: 0 },
      { annotatorId: "y", attempted: 3, passed: 3, accuracy: 1 },
      { annotatorId: "z", attempted: 1, passed: 0, accuracy: 0 },
    ]);
  });

  it("flags accuracy strictly below the threshold, only with enough attempts", () => {
    const acc = goldAccuracy(gold, labels);
    expect(flagAnnotators(acc)).toEqual(["a", "b"]); // 0.667 < 0.7; z has 1 attempt < 2
    expect(flagAnnotators(acc, 2 / 3)).toEqual(["b"]); // exactly at the threshold is not below
    expect(flagAnnotators(acc, 0.7, 1)).toEqual(["a", "b", "z"]);
    expect(flagAnnotators([{ annotatorId: "q", attempted: 10, passed: 7, accuracy: 0.7 }])).toEqual([]);
    expect(() => flagAnnotators(acc, 1.5)).toThrow(/between 0 and 1/);
    expect(() => flagAnnotators(acc, 0.7, 0)).toThrow(/minAttempted/);
  });
});

describe("parseConsensusGold", () => {
  it("reads the stored gold and names the item and path when it is wrong", () => {
    expect(parseConsensusGold({ topics: { T1: 4 } }, 7)).toEqual({ topics: { T1: 4 } });
    expect(() => parseConsensusGold({ topics: { T1: 6 } }, 7)).toThrow(/item 7: gold\.topics\.T1: /);
    expect(() => parseConsensusGold(null, 8)).toThrow(/item 8: gold: /);
  });
});

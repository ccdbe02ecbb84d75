// Persona fidelity (A/B): majority of crowd labels vs the higher reactiveness level.
import { describe, expect, it } from "vitest";
import {
  abLabelMatrix,
  majorityChoice,
  personaFidelity,
  type AbPair,
} from "../../../app/domain/metrics/persona-fidelity.ts";

const labels = (...choices: ("A" | "B")[]) => choices.map((choice, i) => ({ annotatorId: `u${i + 1}`, choice }));

describe("personaFidelity", () => {
  const pairs: AbPair[] = [
    // higher = A (1 > 1/3); majority A (2 of 3) → correct
    { pairId: "p1", backbone: "ds", levelA: 1, levelB: 1 / 3, labels: labels("A", "A", "B") },
    // higher = B (2/3 > 0); majority B → correct
    { pairId: "p2", backbone: "ds", levelA: 0, levelB: 2 / 3, labels: labels("A", "B", "B") },
    // higher = A (2/3 > 0); majority B → wrong
    { pairId: "p3", backbone: "ds", levelA: 2 / 3, levelB: 0, labels: labels("B", "B", "A") },
    // two labels, one each → no majority → not correct
    { pairId: "p4", backbone: "ds", levelA: 1 / 3, levelB: 1, labels: labels("A", "B") },
    // higher = B; unanimous B → correct
    { pairId: "p5", backbone: "gpt", levelA: 0, levelB: 1, labels: labels("B", "B", "B") },
  ];

  it("counts majority-correct pairs per backbone", () => {
    // ds: 4 pairs, correct p1 + p2 = 2, no majority p4 → fidelity 2/4; gpt: 1/1.
    expect(personaFidelity(pairs)).toEqual([
      { backbone: "ds", pairs: 4, correct: 2, noMajority: 1, fidelity: 0.5, labels: 11 },
      { backbone: "gpt", pairs: 1, correct: 1, noMajority: 0, fidelity: 1, labels: 3 },
    ]);
  });

  it("finds no majority on a tie or without labels", () => {
    expect(majorityChoice(labels("A", "B", "B", "A"))).toBeNull();
    expect(majorityChoice([])).toBeNull();
    expect(majorityChoice(labels("B", "A", "B", "A", "B"))).toBe("B");
  });

  it("rejects equal levels, duplicate annotators and duplicate pair ids", () => {
    expect(() => personaFidelity([{ ...pairs[0], levelB: 1 }])).toThrow(RangeError);
    expect(() =>
      personaFidelity([{ ...pairs[0], labels: [...labels("A"), { annotatorId: "u1", choice: "B" }] }]),
    ).toThrow(RangeError);
    expect(() => personaFidelity([pairs[0], pairs[0]])).toThrow(RangeError);
  });
});

describe("abLabelMatrix", () => {
  it("builds annotator rows × pair columns with null where an annotator did not label", () => {
    const matrix = abLabelMatrix([
      { pairId: "p1", backbone: "ds", levelA: 1, levelB: 0, labels: labels("A", "A", "B") },
      {
        pairId: "p2",
        backbone: "ds",
        levelA: 0,
        levelB: 1,
        labels: [
          { annotatorId: "u4", choice: "B" },
          { annotatorId: "u1", choice: "A" },
        ],
      },
    ]);
    expect(matrix).toEqual({
      annotatorIds: ["u1", "u2", "u3", "u4"],
      pairIds: ["p1", "p2"],
      values: [
        ["A", "A"],
        ["A", null],
        ["B", null],
        [null, "B"],
      ],
    });
  });
});

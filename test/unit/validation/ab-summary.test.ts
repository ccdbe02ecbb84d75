// A/B study summary: fidelity per backbone and nominal alpha, the same as the metric and engine give.
import { describe, expect, it } from "vitest";
import { personaFidelity } from "../../../app/domain/metrics/persona-fidelity.ts";
import { bootstrapAlpha, krippendorffAlpha } from "../../../app/domain/stats/index.ts";
import { abSummary, type AbItem, type AbLabelRow } from "../../../app/domain/validation/index.ts";
import { naiveAlpha } from "../stats/helpers.ts";

const items: AbItem[] = [
  { itemId: 3, pairId: "p3", backbone: "ds", levelA: 2 / 3, levelB: 0, isGold: false },
  { itemId: 1, pairId: "p1", backbone: "ds", levelA: 1, levelB: 1 / 3, isGold: false },
  { itemId: 2, pairId: "p2", backbone: "ds", levelA: 0, levelB: 2 / 3, isGold: false },
  { itemId: 4, pairId: "p4", backbone: "gpt", levelA: 0, levelB: 1, isGold: false },
  { itemId: 5, pairId: "p5", backbone: "gpt", levelA: 1, levelB: 0, isGold: false }, // nobody labelled it
  { itemId: 9, pairId: "g1", backbone: "gpt", levelA: 1, levelB: 0, isGold: true },
];
const l = (itemId: number, annotatorId: string, choice: "A" | "B"): AbLabelRow => ({ itemId, annotatorId, payload: { kind: "ab-reactiveness", choice } });
const labels = [
  l(1, "u1", "A"),
  l(1, "u2", "A"),
  l(1, "u3", "B"),
  l(2, "u1", "A"),
  l(2, "u2", "B"),
  l(2, "u3", "B"),
  l(3, "u1", "B"),
  l(3, "u2", "B"),
  l(3, "u4", "A"),
  l(4, "u2", "B"),
  l(4, "u3", "B"),
  l(4, "u4", "B"),
  l(9, "u1", "B"), // gold: left out
];

describe("abSummary", () => {
  it("matches personaFidelity and the engine's nominal alpha on an independently built matrix", () => {
    const s = abSummary(items, labels, { draws: 300, seed: 4 });
    const pairs = [
      { pairId: "p3", backbone: "ds", levelA: 2 / 3, levelB: 0, labels: [{ annotatorId: "u1", choice: "B" as const }, { annotatorId: "u2", choice: "B" as const }, { annotatorId: "u4", choice: "A" as const }] },
      { pairId: "p1", backbone: "ds", levelA: 1, levelB: 1 / 3, labels: [{ annotatorId: "u1", choice: "A" as const }, { annotatorId: "u2", choice: "A" as const }, { annotatorId: "u3", choice: "B" as const }] },
      { pairId: "p2", backbone: "ds", levelA: 0, levelB: 2 / 3, labels: [{ annotatorId: "u1", choice: "A" as const }, { annotatorId: "u2", choice: "B" as const }, { annotatorId: "u3", choice: "B" as const }] },
      { pairId: "p4", backbone: "gpt", levelA: 0, levelB: 1, labels: [{ annotatorId: "u2", choice: "B" as const }, { annotatorId: "u3", choice: "B" as const }, { annotatorId: "u4", choice: "B" as const }] },
    ];
    // ds: p1 correct (A), p2 correct (B), p3 wrong (majority B, higher is A) → 2/3; gpt: p4 correct → 1/1.
    expect(s.fidelity).toEqual(personaFidelity(pairs));
    expect(s.fidelity.map((f) => [f.backbone, f.pairs, f.correct, f.fidelity])).toEqual([
      ["ds", 3, 2, 2 / 3],
      ["gpt", 1, 1, 1],
    ]);
    expect(s.overall).toEqual({ pairs: 4, correct: 3, noMajority: 0, fidelity: 3 / 4, labels: 12 });
    expect(s.unlabelledPairs).toBe(1);

    // Rows u1..u4, columns in item id order p1, p2, p3, p4.
    const _ = null;
    const matrix = [
      ["A", "A", "B", _],
      ["A", "B", "B", "B"],
      ["B", "B", _, "B"],
      [_, _, "A", "B"],
    ];
    expect(s.raters).toEqual(["u1", "u2", "u3", "u4"]);
    expect(s.pairIds).toEqual(["p1", "p2", "p3", "p4"]);
    expect(s.matrix).toEqual(matrix);
    expect(s.nominal.result).toEqual(krippendorffAlpha(matrix, "nominal"));
    expect(Math.abs((s.nominal.result.alpha as number) - (naiveAlpha(matrix, "nominal") as number))).toBeLessThan(1e-12);
    expect(s.nominal.bootstrap).toEqual(bootstrapAlpha(matrix, "nominal", { draws: 300, seed: 4 }));
    expect(s.pairableUnits).toBe(4);
  });

  it("does not depend on the order of the item rows", () => {
    const a = abSummary(items, labels, { draws: 200 });
    const b = abSummary([...items].reverse(), [...labels].reverse(), { draws: 200 });
    expect(b).toEqual(a);
  });

  it("leaves excluded annotators out of fidelity and alpha", () => {
    const s = abSummary(items, labels, { exclude: ["u4"], draws: 100 });
    expect(s.excluded).toEqual(["u4"]);
    expect(s.raters).toEqual(["u1", "u2", "u3"]);
    // p3 now has u1 B, u2 B: still wrong; p4 u2 B, u3 B: still correct.
    expect(s.overall).toMatchObject({ pairs: 4, correct: 3, labels: 10 });
  });

  it("reports no fidelity before any label and rejects a consensus label", () => {
    const s = abSummary(items, [], { draws: 100 });
    expect(s.fidelity).toEqual([]);
    expect(s.overall.fidelity).toBeNull();
    expect(s.nominal.result.alpha).toBeNull();
    expect(() =>
      abSummary(items, [{ itemId: 1, annotatorId: "u1", payload: { kind: "consensus-snippet", topics: {} } } as unknown as AbLabelRow]),
    ).toThrow(/labels\[0\] \(annotator u1, item 1\): expected an A\/B label/);
  });
});

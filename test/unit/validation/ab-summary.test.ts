// A/B study summary: fidelity per backbone and nominal alpha, the same as the metric and engine give.
import { describe, expect, it } from "vitest";
import { alpha as npmAlpha } from "krippendorff";
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
const l = (itemId: number, annotatorId: string, choice: "A" | "B"): AbLabelRow => ({
  itemId,
  annotatorId,
  payload: { kind: "ab-reactiveness", choice },
});
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
      {
        pairId: "p3",
        backbone: "ds",
        levelA: 2 / 3,
        levelB: 0,
        labels: [
          { annotatorId: "u1", choice: "B" as const },
          { annotatorId: "u2", choice: "B" as const },
          { annotatorId: "u4", choice: "A" as const },
        ],
      },
      {
        pairId: "p1",
        backbone: "ds",
        levelA: 1,
        levelB: 1 / 3,
        labels: [
          { annotatorId: "u1", choice: "A" as const },
          { annotatorId: "u2", choice: "A" as const },
          { annotatorId: "u3", choice: "B" as const },
        ],
      },
      {
        pairId: "p2",
        backbone: "ds",
        levelA: 0,
        levelB: 2 / 3,
        labels: [
          { annotatorId: "u1", choice: "A" as const },
          { annotatorId: "u2", choice: "B" as const },
          { annotatorId: "u3", choice: "B" as const },
        ],
      },
      {
        pairId: "p4",
        backbone: "gpt",
        levelA: 0,
        levelB: 1,
        labels: [
          { annotatorId: "u2", choice: "B" as const },
          { annotatorId: "u3", choice: "B" as const },
          { annotatorId: "u4", choice: "B" as const },
        ],
      },
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
    expect(Math.abs((s.nominal.result.alpha as number) - (naiveAlpha(matrix, "nominal") as number))).toBeLessThan(
      1e-12,
    );
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
      abSummary(items, [
        { itemId: 1, annotatorId: "u1", payload: { kind: "consensus-snippet", topics: {} } } as unknown as AbLabelRow,
      ]),
    ).toThrow(/labels\[0\] \(annotator u1, item 1\): expected an A\/B label/);
  });
});

describe("abSummary: nominal alpha per simulator backbone (Table 1 layout)", () => {
  // Two backbones with disagreement in each; "sim-b" also has a pair with a single label (not pairable).
  const twoBackbones: AbItem[] = [
    ...[1, 2, 3, 4].map((i) => ({
      itemId: i,
      pairId: `a${i}`,
      backbone: "sim-a",
      levelA: i % 2 ? 1 : 0,
      levelB: i % 2 ? 0 : 1,
      isGold: false,
    })),
    ...[5, 6, 7, 8, 9].map((i) => ({
      itemId: i,
      pairId: `b${i}`,
      backbone: "sim-b",
      levelA: 2 / 3,
      levelB: 1 / 3,
      isGold: false,
    })),
  ];
  const choices: [number, string, "A" | "B"][] = [
    [1, "u1", "A"],
    [1, "u2", "A"],
    [1, "u3", "B"],
    [2, "u1", "B"],
    [2, "u2", "B"],
    [3, "u1", "A"],
    [3, "u3", "A"],
    [4, "u2", "A"],
    [4, "u3", "B"],
    [5, "u1", "A"],
    [5, "u4", "A"],
    [6, "u1", "B"],
    [6, "u2", "A"],
    [6, "u4", "B"],
    [7, "u2", "B"],
    [7, "u4", "B"],
    [8, "u1", "A"],
    [8, "u2", "B"],
    [9, "u3", "A"], // one label: not pairable
  ];
  const rows = choices.map(([itemId, annotatorId, choice]) => l(itemId, annotatorId, choice));
  // Independently written raters × pairs matrices (undefined = no label), as the krippendorff package takes them.
  const u = undefined;
  const simA = [
    ["A", "B", "A", u], // u1 on a1..a4
    ["A", "B", u, "A"], // u2
    ["B", u, "A", "B"], // u3
  ];
  const simB = [
    ["A", "B", u, "A", u], // u1 on b5..b9
    [u, "A", "B", "B", u], // u2
    [u, u, u, u, "A"], // u3
    ["A", "B", "B", u, u], // u4
  ];

  it("matches the krippendorff package on each backbone's own labels to 1e-9", () => {
    const s = abSummary(twoBackbones, rows, { draws: 200, seed: 9 });
    expect(s.alphaByBackbone.map((a) => [a.backbone, a.pairableUnits])).toEqual([
      ["sim-a", 4],
      ["sim-b", 4],
    ]);
    const [a, b] = s.alphaByBackbone;
    expect(a.nominal.result.alpha).not.toBeNull();
    expect(b.nominal.result.alpha).not.toBeNull();
    expect(Math.abs((a.nominal.result.alpha as number) - npmAlpha(simA))).toBeLessThan(1e-9);
    expect(Math.abs((b.nominal.result.alpha as number) - npmAlpha(simB))).toBeLessThan(1e-9);
    // Each backbone's CI is the seeded bootstrap over its own pairs only.
    const asMatrix = (m: (string | undefined)[][]) => m.map((r) => r.map((v) => v ?? null));
    expect(a.nominal.bootstrap).toEqual(bootstrapAlpha(asMatrix(simA), "nominal", { draws: 200, seed: 9 }));
    expect(b.nominal.bootstrap).toEqual(bootstrapAlpha(asMatrix(simB), "nominal", { draws: 200, seed: 9 }));
    // Per-backbone alphas are not the overall one, which pools every pair.
    const overall = simA.map((row, r) => [...row, ...simB[r]]).concat([[u, u, u, u, ...simB[3]]]);
    expect(Math.abs((s.nominal.result.alpha as number) - npmAlpha(overall))).toBeLessThan(1e-9);
  });

  it("follows the exclusion of annotators, and drops a backbone with no labels left", () => {
    const s = abSummary(
      twoBackbones,
      rows.filter((r) => Number(r.itemId) <= 4),
      { draws: 50 },
    );
    expect(s.alphaByBackbone.map((a) => a.backbone)).toEqual(["sim-a"]);
    const without = abSummary(twoBackbones, rows, { exclude: ["u3"], draws: 50 });
    const simAWithout = simA.slice(0, 2);
    expect(Math.abs((without.alphaByBackbone[0].nominal.result.alpha as number) - npmAlpha(simAWithout))).toBeLessThan(
      1e-9,
    );
  });
});

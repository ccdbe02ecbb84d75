// Inter-annotator agreement on consensus labels: the matrix the dashboard builds and the alpha it reports.
import { describe, expect, it } from "vitest";
import { bootstrapAlpha, krippendorffAlpha } from "../../../app/domain/stats/index.ts";
import { consensusAgreement, consensusMatrix } from "../../../app/domain/validation/index.ts";
import { naiveAlpha } from "../stats/helpers.ts";
import { item, label } from "./fixtures.ts";

const _ = null;

describe("consensusAgreement", () => {
  it("reproduces a hand-computed interval alpha", () => {
    // Two experts, three units (one item, topics T1..T3): [1, 2, 3] and [1, 2, 4].
    // Pairable values 1,1,2,2,3,4 (n = 6). Observed: only unit 3 disagrees, δ² = 1 counted both
    // ways with weight 1/(2−1): D_o = 2/6. Expected: Σ over ordered pairs of (a−b)² = 2·n·Σ(x−x̄)²
    // = 2·6·41/6 = 82, D_e = 82/30. alpha = 1 − (1/3)/(41/15) = 36/41.
    const items = [item(1, "r1", 1, { topics: ["T1", "T2", "T3"] })];
    const labels = [
      label(1, "e1", "expert", { T1: 1, T2: 2, T3: 3 }),
      label(1, "e2", "expert", { T1: 1, T2: 2, T3: 4 }),
    ];
    const result = consensusAgreement(items, labels, { pool: "expert", draws: 200 });
    expect(result.interval.result.alpha).toBeCloseTo(36 / 41, 12);
    expect(result.pairableUnits).toBe(3);
    expect(result.raters).toEqual(["e1", "e2"]);
  });

  // Three runs; run r2 has a gold item at position 2 that must not enter the matrix.
  const items = [
    item(10, "r2", 1),
    item(11, "r2", 2, { gold: true }),
    item(12, "r2", 3, { last: true }),
    item(1, "r1", 1),
    item(2, "r1", 2, { last: true }),
    item(20, "r3", 1, { topics: ["T1"] }),
  ];
  const labels = [
    label(1, "e1", "expert", { T1: 1, T2: 2 }, 60),
    label(1, "e2", "expert", { T1: 2, T2: 2 }, 80),
    label(1, "e3", "expert", { T1: 1, T2: 3 }),
    label(2, "e1", "expert", { T1: 3, T2: 4 }),
    label(2, "e2", "expert", { T1: 4, T2: 4 }),
    label(10, "e1", "expert", { T1: 2, T2: 1 }),
    label(10, "e3", "expert", { T1: 5, T2: 1 }),
    label(11, "e1", "expert", { T1: 5, T2: 5 }), // gold
    label(11, "e2", "expert", { T1: 1, T2: 1 }), // gold
    label(12, "e2", "expert", { T1: 4, T2: 5 }),
    label(12, "e3", "expert", { T1: 3, T2: 5 }),
    label(20, "e1", "expert", { T1: 2 }),
    label(1, "c1", "crowd", { T1: 5, T2: 5 }),
    label(1, "c2", "crowd", { T1: 4, T2: 5 }),
    label(2, "c1", "crowd", { T1: 1, T2: 1 }),
  ];
  // Built by hand from the labels above: units sorted by run, snippet position, then the item's
  // topic order; gold item 11 left out; rows e1, e2, e3.
  const expectedUnits = [
    [1, "T1"],
    [1, "T2"],
    [2, "T1"],
    [2, "T2"],
    [10, "T1"],
    [10, "T2"],
    [12, "T1"],
    [12, "T2"],
    [20, "T1"],
  ];
  const expertMatrix = [
    [1, 2, 3, 4, 2, 1, _, _, 2],
    [2, 2, 4, 4, _, _, 4, 5, _],
    [1, 3, _, _, 5, 1, 3, 5, _],
  ];

  it("builds one pool's raters × (item, topic) matrix without gold items", () => {
    const m = consensusMatrix(items, labels, "expert");
    expect(m.units.map((u) => [u.itemId, u.topicId])).toEqual(expectedUnits);
    expect(m.raters).toEqual(["e1", "e2", "e3"]);
    expect(m.matrix).toEqual(expertMatrix);
    expect(m.excluded).toEqual([]);
    const crowd = consensusMatrix(items, labels, "crowd");
    expect(crowd.raters).toEqual(["c1", "c2"]);
    expect(crowd.matrix).toEqual([
      [5, 5, 1, 1, _, _, _, _, _],
      [4, 5, _, _, _, _, _, _, _],
    ]);
  });

  it("reports exactly what the statistics engine gives on the same matrix", () => {
    const result = consensusAgreement(items, labels, { pool: "expert", draws: 500, seed: 11 });
    expect(result.matrix).toEqual(expertMatrix);
    for (const level of ["interval", "ordinal"] as const) {
      const engine = krippendorffAlpha(expertMatrix, level);
      expect(result[level].result).toEqual(engine);
      expect(
        Math.abs((result[level].result.alpha as number) - (naiveAlpha(expertMatrix, level) as number)),
      ).toBeLessThan(1e-12);
      const boot = bootstrapAlpha(expertMatrix, level, { draws: 500, seed: 11 });
      expect(result[level].bootstrap).toEqual(boot);
      expect(result[level].bootstrap.ci).not.toBeNull();
    }
    // Units with ≥ 2 ratings: all but (20, T1).
    expect(result.pairableUnits).toBe(8);
  });

  it("uses the spec's bootstrap defaults: 1000 draws, seed 1", () => {
    const result = consensusAgreement(items, labels, { pool: "expert" });
    expect(result.interval.bootstrap.draws).toBe(1000);
    expect(result.interval.bootstrap.seed).toBe(1);
    expect(result.ordinal.bootstrap).toEqual(bootstrapAlpha(expertMatrix, "ordinal", { draws: 1000, seed: 1 }));
  });

  it("drops excluded annotators' rows and names them", () => {
    const result = consensusAgreement(items, labels, { pool: "expert", exclude: ["e3", "nobody"], draws: 100 });
    expect(result.raters).toEqual(["e1", "e2"]);
    expect(result.excluded).toEqual(["e3"]);
    expect(result.matrix).toEqual(expertMatrix.slice(0, 2));
    expect(result.interval.result).toEqual(krippendorffAlpha(expertMatrix.slice(0, 2), "interval"));
  });

  it("gives null alpha with the engine's reason when nothing is pairable", () => {
    const result = consensusAgreement([item(1, "r1", 1)], [label(1, "e1", "expert", { T1: 3, T2: 4 })], {
      pool: "expert",
      draws: 100,
    });
    expect(result.interval.result.alpha).toBeNull();
    expect(result.interval.result.reason).toMatch(/no pairable values/);
    expect(result.interval.bootstrap.ci).toBeNull();
    const none = consensusAgreement([item(1, "r1", 1)], [], { pool: "crowd", draws: 100 });
    expect(none.raters).toEqual([]);
    expect(none.interval.result.alpha).toBeNull();
  });

  it("names the label when it is bad", () => {
    expect(() => consensusMatrix(items, [label(99, "e1", "expert", { T1: 1 })], "expert")).toThrow(
      /labels\[0\]: item 99 is not among/,
    );
    expect(() => consensusMatrix(items, [label(20, "e1", "expert", { T2: 1 })], "expert")).toThrow(
      /labels\[0\] \(annotator e1, item 20\) topic "T2": the item does not list this topic/,
    );
    expect(() => consensusMatrix(items, [label(20, "e1", "expert", { T1: 6 })], "expert")).toThrow(
      /score must be a whole number 1–5, got 6/,
    );
    expect(() =>
      consensusMatrix(items, [label(1, "e1", "expert", { T1: 1 }), label(1, "e1", "expert", { T1: 2 })], "expert"),
    ).toThrow(/labels\[1\]: annotator e1 has a second label on item 1/);
    expect(() => consensusMatrix([item(1, "r1", 1), item(1, "r1", 2)], [], "expert")).toThrow(
      /items\[1\]: item id 1 appears twice/,
    );
  });
});

// Consensus by snippet position for the dashboard's line chart.
import { describe, expect, it } from "vitest";
import { alignmentTable, consensusTrend } from "../../../app/domain/validation/index.ts";
import { item, label } from "./fixtures.ts";

describe("consensusTrend", () => {
  // Two runs; r1 has two snippets, r2 three. Topics T1, T2.
  const items = [
    item(1, "r1", 1, { endTurn: 2 }),
    item(2, "r1", 2, { endTurn: 4, last: true }),
    item(3, "r2", 1, { endTurn: 2 }),
    item(4, "r2", 2, { endTurn: 4 }),
    item(5, "r2", 3, { endTurn: 6, last: true }),
  ];
  const labels = [
    label(1, "e1", "expert", { T1: 1, T2: 3 }),
    label(1, "e2", "expert", { T1: 1, T2: 1 }),
    label(2, "e1", "expert", { T1: 5, T2: 3 }),
    label(3, "e1", "expert", { T1: 3, T2: 3 }),
    label(4, "e1", "expert", { T1: 4, T2: 2 }),
    label(5, "e1", "expert", { T1: 5, T2: 5 }),
  ];
  // The evaluator scores every topic 3 at every turn in r1, and has no evaluation of r2.
  const table = alignmentTable(items, labels, {
    evaluators: [{ backbone: "gpt", valueAt: (runId) => (runId === "r1" ? 3 : null) }],
  });

  it("averages the expert mean and each method over the units at a position, on consensus 0–1", () => {
    const trend = consensusTrend(table);
    expect(trend.scale).toBe("consensus-0-1");
    expect(trend.positions).toEqual([1, 2, 3]);
    const [expert, gpt] = trend.series;
    // Position 1: references r1 T1 1, T2 2; r2 T1 3, T2 3 → remapped 0, 0.25, 0.5, 0.5 → mean 0.3125.
    // Position 2: r1 5, 3; r2 4, 2 → 1, 0.5, 0.75, 0.25 → 0.625. Position 3: r2 5, 5 → 1.
    expect(expert).toEqual({
      key: "expert",
      label: "Expert mean",
      method: "expert",
      points: [
        { position: 1, mean: 0.3125, n: 4 },
        { position: 2, mean: 0.625, n: 4 },
        { position: 3, mean: 1, n: 2 },
      ],
    });
    // The evaluator only has r1's units: 3 → 0.5 at positions 1 and 2, nothing at 3.
    expect(gpt.key).toBe("evaluator:gpt");
    expect(gpt.points).toEqual([
      { position: 1, mean: 0.5, n: 2 },
      { position: 2, mean: 0.5, n: 2 },
      { position: 3, mean: null, n: 0 },
    ]);
  });

  it("is empty without units", () => {
    const trend = consensusTrend(alignmentTable(items, [], { evaluators: [] }));
    expect(trend.positions).toEqual([]);
    expect(trend.series).toEqual([{ key: "expert", label: "Expert mean", method: "expert", points: [] }]);
  });
});

// The alignment table: expert reference per (snippet, topic), one Pearson row per method.
import { describe, expect, it } from "vitest";
import { pearson } from "../../../app/domain/stats/index.ts";
import { alignmentTable, baselineLookup, referenceUnits, seriesLookup } from "../../../app/domain/validation/index.ts";
import { item, label } from "./fixtures.ts";

// Run r1: 6 turns, snippets end at 3 and 6. Run r2: 8 turns, snippets end at 2, 5, 8.
const expertItems = [
  item(1, "r1", 1, { endTurn: 3 }),
  item(2, "r1", 2, { endTurn: 6, last: true }),
  item(3, "r2", 1, { endTurn: 2 }),
  item(4, "r2", 2, { endTurn: 5 }),
  item(5, "r2", 3, { endTurn: 8, last: true }),
  item(6, "r1", 1, { endTurn: 3, gold: true }),
];
// A crowd study over some of the same snippets: its items share the units.
const crowdItems = [
  item(101, "r1", 1, { endTurn: 3 }),
  item(102, "r1", 2, { endTurn: 6, last: true }),
  item(105, "r2", 3, { endTurn: 8, last: true }),
];
const items = [...expertItems, ...crowdItems];

const labels = [
  label(1, "e1", "expert", { T1: 1, T2: 2 }),
  label(1, "e2", "expert", { T1: 2, T2: 2 }),
  label(2, "e1", "expert", { T1: 3, T2: 4 }),
  label(2, "e2", "expert", { T1: 4, T2: 5 }),
  label(3, "e1", "expert", { T1: 2, T2: 1 }),
  label(4, "e1", "expert", { T1: 3, T2: 2 }),
  label(4, "e2", "expert", { T1: 3, T2: 3 }),
  label(5, "e1", "expert", { T1: 5, T2: 3 }),
  label(5, "e2", "expert", { T1: 4, T2: 4 }),
  label(6, "e1", "expert", { T1: 5, T2: 5 }), // gold: never part of the reference
  label(101, "c1", "crowd", { T1: 2, T2: 3 }),
  label(101, "c2", "crowd", { T1: 1, T2: 3 }),
  label(102, "c1", "crowd", { T1: 4, T2: 4 }),
  label(105, "c1", "crowd", { T1: 5, T2: 5 }),
  label(105, "c2", "crowd", { T1: 3, T2: 4 }),
  label(105, "c3", "crowd", { T1: 4, T2: 3 }),
];

// Hand-computed, in unit order (r1/1/T1, r1/1/T2, r1/2/T1, r1/2/T2, r2/1/T1, …, r2/3/T2).
const reference = [1.5, 2, 3.5, 4.5, 2, 1, 3, 2.5, 4.5, 3.5];
const crowdMean = [1.5, 3, 4, 4, null, null, null, null, 4, 4];

// Evaluator score series s[k][0..T]; values at the snippet ends are read off by hand below.
const gptSeries = [
  { runId: "r1", topicId: "T1", values: [1, 1, 2, 2, 3, 3, 4] }, // t=3 → 2, t=6 → 4
  { runId: "r1", topicId: "T2", values: [1, 1, 1, 2, 2, 5, 5] }, // t=3 → 2, t=6 → 5
  { runId: "r2", topicId: "T1", values: [1, 2, 2, 2, 3, 3, 4, 5, 5] }, // t=2 → 2, t=5 → 3, t=8 → 5
  { runId: "r2", topicId: "T2", values: [1, 1, 1, 1, 1, 2, 2, 3, 3] }, // t=2 → 1, t=5 → 2, t=8 → 3
];
const gpt = [2, 2, 4, 5, 2, 1, 3, 2, 5, 3];
// Per-turn baseline pair series A[·][·][k][0..T], only for r1.
const pairsT1 = [
  [0, 0, 0.25, 0.5, 0.5, 0.75, 0.75],
  [0, 0, 0.25, 0.25, 0.5, 0.5, 1],
];
const pairsT2 = [
  [0, 0, 0, 0.25, 0.25, 0.5, 0.5],
  [0, 0.5, 0.5, 0.5, 0.5, 0.75, 0.75],
];
const base = (pairs: number[][], t: number) => 1 + 4 * ((pairs[0][t] + pairs[1][t]) / 2);

const options = {
  evaluators: [
    { backbone: "gpt", valueAt: seriesLookup(gptSeries) },
    {
      backbone: "ds",
      valueAt: seriesLookup(
        gptSeries.filter((s) => s.runId === "r1").map((s) => ({ ...s, values: s.values.map((v) => 6 - v) })),
      ),
    },
  ],
  baseline: {
    backbone: "judge",
    valueAt: baselineLookup([
      { runId: "r1", topicId: "T1", pairSeries: pairsT1 },
      { runId: "r1", topicId: "T2", pairSeries: pairsT2 },
    ]),
  },
};

describe("referenceUnits", () => {
  it("averages expert scores per (snippet, topic) over non-gold items, crowd alongside", () => {
    const units = referenceUnits(items, labels);
    expect(units.map((u) => [u.runId, u.snippetPosition, u.topicId])).toEqual([
      ["r1", 1, "T1"],
      ["r1", 1, "T2"],
      ["r1", 2, "T1"],
      ["r1", 2, "T2"],
      ["r2", 1, "T1"],
      ["r2", 1, "T2"],
      ["r2", 2, "T1"],
      ["r2", 2, "T2"],
      ["r2", 3, "T1"],
      ["r2", 3, "T2"],
    ]);
    expect(units.map((u) => u.reference)).toEqual(reference);
    expect(units.map((u) => u.crowd)).toEqual(crowdMean);
    expect(units.map((u) => u.expertLabels)).toEqual([2, 2, 2, 2, 1, 1, 2, 2, 2, 2]);
    expect(units.map((u) => u.crowdLabels)).toEqual([2, 2, 1, 1, 0, 0, 0, 0, 3, 3]);
    expect(units.filter((u) => u.isLastSnippet).map((u) => u.endTurn)).toEqual([6, 6, 8, 8]);
  });

  it("can require two expert scores per unit", () => {
    const units = referenceUnits(items, labels, 2);
    expect(units).toHaveLength(8);
    expect(units.some((u) => u.runId === "r2" && u.snippetPosition === 1)).toBe(false);
  });
});

describe("alignmentTable", () => {
  const table = alignmentTable(items, labels, options);

  it("has a row per evaluator backbone, the baseline, then the crowd", () => {
    expect(table.rows.map((r) => r.key)).toEqual(["evaluator:gpt", "evaluator:ds", "baseline", "crowd"]);
    expect(table.rows.map((r) => r.label)).toEqual([
      "Topic-localized evaluator (gpt)",
      "Topic-localized evaluator (ds)",
      "Per-turn baseline (judge)",
      "Non-expert pool (crowd mean)",
    ]);
    expect(table.minExpertLabels).toBe(1);
  });

  it("gives the statistics engine's Pearson on the units it lists, at trajectory and outcome level", () => {
    const [gptRow, dsRow, baseRow, crowdRow] = table.rows;
    expect(gptRow.values).toEqual(gpt);
    expect(gptRow.trajectory).toEqual(pearson(gpt, reference));
    // Final snippets: r1/2 and r2/3.
    expect(gptRow.outcome).toEqual(pearson([4, 5, 5, 3], [3.5, 4.5, 4.5, 3.5]));
    expect(gptRow).toMatchObject({ units: 10, finalSnippetUnits: 4, skippedNoValue: 0, outcomeSkippedNoValue: 0 });

    // ds has scores for r1 only (6 − gpt's): r1's four units.
    expect(dsRow.values).toEqual([4, 4, 2, 1, null, null, null, null, null, null]);
    expect(dsRow.trajectory).toEqual(pearson([4, 4, 2, 1], [1.5, 2, 3.5, 4.5]));
    expect(dsRow.trajectory.r).toBeLessThan(0);
    expect(dsRow.outcome.r).toBeNull();
    expect(dsRow.outcome.reason).toMatch(/at least 3 pairs/);

    const baseValues = [base(pairsT1, 3), base(pairsT2, 3), base(pairsT1, 6), base(pairsT2, 6)];
    expect(baseRow.values.slice(0, 4)).toEqual(baseValues);
    expect(baseValues).toEqual([2.5, 2.5, 4.5, 3.5]);
    expect(baseRow.trajectory).toEqual(pearson(baseValues, [1.5, 2, 3.5, 4.5]));
    expect(baseRow.backbone).toBe("judge");

    expect(crowdRow.trajectory).toEqual(pearson([1.5, 3, 4, 4, 4, 4], [1.5, 2, 3.5, 4.5, 4.5, 3.5]));
    expect(crowdRow.outcome.r).toBeNull();
    expect(crowdRow.outcome.reason).toMatch(/constant/);
  });

  it("leaves out the crowd row when no crowd label falls on a reference unit, and the baseline when none is given", () => {
    const expertOnly = alignmentTable(
      items,
      labels.filter((l) => l.pool === "expert"),
      { evaluators: options.evaluators },
    );
    expect(expertOnly.rows.map((r) => r.key)).toEqual(["evaluator:gpt", "evaluator:ds"]);
  });

  it("rejects repeated backbones, disagreeing snippet rows and bad settings", () => {
    expect(() => alignmentTable(items, labels, { evaluators: [options.evaluators[0], options.evaluators[0]] })).toThrow(
      /"gpt" is given twice/,
    );
    expect(() => alignmentTable([...items, item(200, "r1", 2, { endTurn: 5, last: true })], labels, options)).toThrow(
      /items 102 and 200 show snippet 2 of run r1 but disagree/,
    );
    expect(() => alignmentTable(items, labels, { ...options, minExpertLabels: 0 })).toThrow(/minExpertLabels/);
    // A lookup that reads past the run's end is the caller's bug, reported by the metric helper.
    expect(() =>
      alignmentTable([item(1, "r1", 1, { endTurn: 9 })], [label(1, "e1", "expert", { T1: 1 })], options),
    ).toThrow(/outside 1\.\.6/);
  });
});

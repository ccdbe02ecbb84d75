// Figure 5's Vega-Lite spec from a real consensus trend, and its SVG as the server draws it.
import { describe, expect, it } from "vitest";
import { renderChartSvg } from "../../../app/server/charts/render.server.ts";
import { alignmentTable, consensusTrend } from "../../../app/domain/validation/index.ts";
import { trendChartSpec } from "../../../app/domain/validation/trend-chart.ts";
import { item, label } from "./fixtures.ts";

// Two runs: items 1–2 are r1's snippets 1–2, items 3–5 r2's snippets 1–3. One expert's scores (T1, T2):
const scores: Record<number, [number, number]> = { 1: [1, 3], 2: [5, 3], 3: [3, 3], 4: [4, 2], 5: [5, 5] };
const items = Object.keys(scores).map((key) => {
  const id = Number(key);
  const [runId, position] = id <= 2 ? ["r1", id] : ["r2", id - 2];
  return item(id, runId, position, { endTurn: position * 2, last: id === 2 || id === 5 });
});
const labels = [
  ...Object.entries(scores).map(([id, [T1, T2]]) => label(Number(id), "e1", "expert", { T1, T2 })),
  label(1, "c1", "crowd", { T1: 2, T2: 2 }),
];
// "gpt" scores 3 everywhere; "llama" has no evaluation of r2, so nothing at position 3.
const table = alignmentTable(items, labels, {
  evaluators: [
    { backbone: "gpt", valueAt: () => 3 },
    { backbone: "llama", valueAt: (runId, _topic, tEnd) => (runId === "r1" ? 1 + tEnd : null) },
  ],
  baseline: { backbone: "gpt", valueAt: () => 2 },
});
const trend = consensusTrend(table);

type Spec = {
  data: { values: Record<string, unknown>[] };
  encoding: Record<string, { scale?: { domain: unknown[]; range: unknown[] } }>;
};
const asSpec = (s: unknown) => s as Spec;

describe("trendChartSpec (Figure 5)", () => {
  it("has one row per series and position with a value, consensus in percent, null points dropped", () => {
    const rows = asSpec(trendChartSpec(trend)).data.values;
    // Expert mean at position 1: r1 T1 1, T2 3; r2 T1 3, T2 3 → remapped 0, .5, .5, .5 → 37.5 %.
    expect(rows).toContainEqual({ position: 1, series: "Expert mean", consensus: 37.5, n: 4 });
    expect(rows).toContainEqual({ position: 3, series: "Topic-localized evaluator (gpt)", consensus: 50, n: 2 });
    // llama at position 2: r1's snippet 2 ends at turn 4 → 5 → 100 %; r2 has no value.
    expect(rows).toContainEqual({ position: 2, series: "Topic-localized evaluator (llama)", consensus: 100, n: 2 });
    expect(rows.filter((r) => r.series === "Topic-localized evaluator (llama)").map((r) => r.position)).toEqual([1, 2]);
    expect(rows.filter((r) => r.series === "Per-turn baseline (gpt)")).toHaveLength(3);
    // The crowd scored one snippet: one point.
    expect(rows.filter((r) => r.series === "Non-expert pool (crowd mean)")).toEqual([
      { position: 1, series: "Non-expert pool (crowd mean)", consensus: 25, n: 2 },
    ]);
    expect(rows.every((r) => typeof r.consensus === "number" && r.consensus >= 0 && r.consensus <= 100)).toBe(true);
  });

  it("keeps the trend's series order, draws the expert mean strongest and the baseline dashed", () => {
    const { encoding } = asSpec(trendChartSpec(trend));
    const order = [
      "Expert mean",
      "Topic-localized evaluator (gpt)",
      "Topic-localized evaluator (llama)",
      "Per-turn baseline (gpt)",
      "Non-expert pool (crowd mean)",
    ];
    expect(encoding.color.scale!.domain).toEqual(order);
    expect(encoding.strokeDash.scale!.domain).toEqual(order);
    const widths = encoding.strokeWidth.scale!.range as number[];
    expect(widths[0]).toBe(Math.max(...widths));
    expect(encoding.color.scale!.range[0]).toBe("#000000");
    const dashes = encoding.strokeDash.scale!.range as number[][];
    expect(dashes[0]).toEqual([]);
    expect(dashes[1]).toEqual([]);
    expect(dashes[3].length).toBeGreaterThan(0);
    // Two evaluators get two different colours, neither the baseline's.
    const colors = encoding.color.scale!.range;
    expect(new Set(colors).size).toBe(5);
  });

  it("draws only the series asked for, in the order asked, skipping keys the trend lacks", () => {
    const spec = asSpec(
      trendChartSpec(trend, { only: ["evaluator:llama", "expert", "baseline", "evaluator:absent"], title: "Figure 5" }),
    );
    expect(spec.encoding.color.scale!.domain).toEqual([
      "Topic-localized evaluator (llama)",
      "Expert mean",
      "Per-turn baseline (gpt)",
    ]);
    expect(new Set(spec.data.values.map((r) => r.series))).toEqual(
      new Set(["Topic-localized evaluator (llama)", "Expert mean", "Per-turn baseline (gpt)"]),
    );
    expect((spec as unknown as { title: string }).title).toBe("Figure 5");
  });

  it("renders to an SVG that names every series and the axes", async () => {
    const svg = await renderChartSvg(trendChartSpec(trend));
    expect(svg.startsWith("<svg")).toBe(true);
    for (const s of trend.series) expect(svg).toContain(s.label);
    expect(svg).toContain("snippet position");
    expect(svg).toContain("Consensus by snippet position");
  });
});

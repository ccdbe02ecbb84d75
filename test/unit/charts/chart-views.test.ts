/**
 * The charts of issue 32: their data (table rows and CSV), rounded tooltips, the narrow variant,
 * and the interval numbers of the new views against values computed independently.
 */
import { describe, expect, it } from "vitest";
import type { TopLevelSpec } from "vega-lite";
import {
  chartCsv,
  chartData,
  narrowChartSpec,
  NARROW_WIDTH,
  tableCell,
} from "../../../app/domain/charts/chart-data.ts";
import { wilsonInterval } from "../../../app/domain/charts/intervals.ts";
import {
  alignmentPoints,
  alignmentScatterSpec,
  consensusChartSpec,
  fidelityDotsSpec,
  goldDotsSpec,
  proportionDot,
  runConsensusSeries,
} from "../../../app/domain/charts/views.ts";
import { facetedBars } from "../../../app/domain/benchmark/charts/faceted-bars.ts";
import { timingLines } from "../../../app/domain/benchmark/charts/timing-lines.ts";
import type { AlignmentTable } from "../../../app/domain/validation/alignment-table.ts";
import { renderChart } from "../../../app/server/charts/render.server.ts";

/**
 * Wilson 95% bounds found by inverting the score test numerically, (p̂ − p)² = z² p(1 − p) / n solved for p with
 * scipy.optimize.brentq, z = norm.ppf(0.975): not the closed form the code uses.
 */
const SCORE_TEST_BOUNDS: [number, number, number, number][] = [
  [8, 10, 0.490162, 0.943318],
  [0, 10, 0, 0.2775328],
  [10, 10, 0.7224672, 1],
  [50, 100, 0.403832, 0.596168],
  [3, 7, 0.15822, 0.749542],
];

type Tooltip = { field?: string; format?: string };

/** Every tooltip entry of a spec (top level, layers, a facet's inner spec). */
function tooltips(node: unknown): Tooltip[] {
  if (!node || typeof node !== "object") return [];
  const n = node as { encoding?: { tooltip?: Tooltip[] }; layer?: unknown[]; spec?: unknown };
  return [...(n.encoding?.tooltip ?? []), ...(n.layer ?? []).flatMap(tooltips), ...tooltips(n.spec)];
}

/** Fields whose values in the spec's data are numbers with a fraction (what a raw tooltip would show in full). */
function fractionalFields(spec: TopLevelSpec): Set<string> {
  const { columns, rows } = chartData(spec);
  return new Set(columns.filter((_, i) => rows.some((r) => typeof r[i] === "number" && !Number.isInteger(r[i]))));
}

const SERIES = runConsensusSeries([
  { method: "topic-localized", backbone: "gpt-x", consensus: [0.5, 5 / 9, 0.6] },
  { method: "per-turn", backbone: "gpt-x", consensus: [0.25, 1 / 3, 0.4] },
]);
const consensus = consensusChartSpec({ title: "Consensus by turn", series: SERIES, totalTurns: 2, mediatorTurns: [1] });

const table: AlignmentTable = {
  minExpertLabels: 1,
  units: [
    {
      runId: "r1",
      snippetPosition: 1,
      isLastSnippet: false,
      endTurn: 4,
      topicId: "t1",
      reference: 2,
      expertLabels: 2,
      crowd: null,
      crowdLabels: 0,
    },
    {
      runId: "r1",
      snippetPosition: 2,
      isLastSnippet: true,
      endTurn: 9,
      topicId: "t1",
      reference: 3.5,
      expertLabels: 2,
      crowd: null,
      crowdLabels: 0,
    },
    {
      runId: "r2",
      snippetPosition: 1,
      isLastSnippet: true,
      endTurn: 6,
      topicId: "t1",
      reference: 4,
      expertLabels: 1,
      crowd: null,
      crowdLabels: 0,
    },
  ],
  rows: [
    {
      key: "evaluator:gpt-x",
      method: "evaluator",
      label: "Topic-localized evaluator (gpt-x)",
      backbone: "gpt-x",
      values: [2.5, 3.25, null],
      trajectory: { r: null, p: null, n: 2, ci: null },
      outcome: { r: null, p: null, n: 1, ci: null },
      skippedNoValue: 1,
      units: 3,
    } as unknown as AlignmentTable["rows"][number],
  ],
};

const SPECS: Record<string, TopLevelSpec> = {
  consensus,
  alignment: alignmentScatterSpec(alignmentPoints(table), "Against the expert mean"),
  fidelity: fidelityDotsSpec([{ backbone: "gpt-x", correct: 8, pairs: 10 }]),
  gold: goldDotsSpec([{ name: "Ann", passed: 3, attempted: 7 }]),
  bars: facetedBars({
    title: "Bars",
    rows: [{ panel: "a", x: "u", y: 1 / 3, group: "g", n: 3 }],
    facet: { field: "panel", title: "panel" },
    x: { field: "x", title: "x", order: ["u"] },
    y: { field: "y", title: "y" },
    color: { field: "group", title: "group", order: ["g"] },
  }),
  timing: timingLines({
    title: "T",
    rows: [{ group: "a", bin: "0–0.2", ie: 2 / 3, mediator: "m", count: 3 }],
    groups: ["a"],
    bins: ["0–0.2"],
    mediators: ["m"],
  }),
};

describe("chart data and tooltips", () => {
  it("gives every fractional tooltip field a format string", () => {
    for (const [name, spec] of Object.entries(SPECS)) {
      const fractional = fractionalFields(spec);
      const shown = tooltips(spec).filter((t) => t.field && fractional.has(t.field));
      expect(shown.length, name).toBeGreaterThan(0);
      for (const t of shown) expect(t.format, `${name}: ${t.field}`).toMatch(/^\.\d[fr]?$/);
    }
  });

  it("draws a rounded tooltip: 5/9 shows as 55.6, never 55.5555…", async () => {
    const chart = await renderChart(consensus);
    expect(chart.svg).toContain("consensus, %: 55.6");
    expect(chart.svg).not.toContain("55.555");
    expect(chart.svg).toMatch(/class="mark-rule role-mark mediator_turns_marks"/);
    expect(chart.svg.match(/aria-roledescription="line mark"/g)).toHaveLength(2);
  });

  it("draws every layer of every chart on its sample data: no mark left as an empty group", async () => {
    for (const [name, spec] of Object.entries(SPECS)) {
      const chart = await renderChart(spec);
      for (const svg of [chart.svg, chart.narrowSvg])
        expect(svg.match(/<g class="mark-[\w-]+ role-mark [^"]*"[^>]*\/>/g), name).toBeNull();
    }
  });

  it("keeps the house text in wide and narrow drawings: nothing under 11 px, titles 14 px at the start", async () => {
    for (const [name, spec] of Object.entries(SPECS)) {
      const chart = await renderChart(spec);
      for (const svg of [chart.svg, chart.narrowSvg]) {
        const sizes = [...svg.matchAll(/font-size="(\d+)px"/g)].map((m) => Number(m[1]));
        expect(Math.min(...sizes), name).toBeGreaterThanOrEqual(11);
        // The narrow drawing sets its own title limit and legend layout; the rest of the house look stays.
        const drawn = [...svg.matchAll(/aria-label="Title text '([^']*)'"[^>]*><text ([^>]*)>/g)];
        const title = drawn.find((m) => m[1] === chart.title)?.[2] ?? "";
        expect(title, name).toContain('font-size="14px"');
        expect(title, name).toContain('text-anchor="start"');
      }
    }
  });

  it("draws the alignment scatter's dashed line of agreement and a hover title on every point", async () => {
    const chart = await renderChart(SPECS.alignment);
    for (const svg of [chart.svg, chart.narrowSvg]) {
      expect(svg.match(/<line [^>]*stroke-dasharray="4,4"/g)).toHaveLength(1);
      const points = svg.match(/<path [^>]*><title>method: [^<]*expert mean: [^<]*<\/title><\/path>/g) ?? [];
      expect(points.length).toBe(alignmentPoints(table).length);
      expect(points.length).toBeGreaterThan(0);
      // One legend names each method by colour and shape; both axes run over the 1–5 scale, not from 0.
      expect(svg).toContain('aria-label="Symbol legend for shape and fill color with 1 value: Topic-localized');
      const ticks = [...svg.matchAll(/role-axis-label"[\s\S]*?<\/g>/g)].map((m) =>
        [...m[0].matchAll(/>([0-9.]+)</g)].map((x) => Number(x[1])),
      );
      expect(ticks).toHaveLength(2);
      for (const axis of ticks) expect([Math.min(...axis), Math.max(...axis)]).toEqual([1, 5]);
    }
    // A method's full name fits the wide drawing's legend.
    const name = "Topic-localized evaluator (demo-judge)";
    const wide = (await renderChart(alignmentScatterSpec([{ method: name, unit: "r · T1", expert: 2, value: 3 }], "t")))
      .svg;
    expect(wide).toMatch(/role-legend-label"[^>]*><text[^>]*>Topic-localized evaluator \(demo-judge\)<\/text>/);
  });

  it("names every row of a dots chart in full: crowd workers' names differ only at their end", async () => {
    const names = ["link worker W-DEMO-LINK-01", "link worker W-DEMO-LINK-02", "prolific worker 5f3a9b2c8d1e7f6a"];
    const chart = await renderChart(goldDotsSpec(names.map((name) => ({ name, passed: 3, attempted: 4 }))));
    const labels = [...chart.svg.matchAll(/role-axis-label"[\s\S]*?<\/g>/g)]
      .flatMap((m) => [...m[0].matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((t) => t[1]))
      .filter((t) => t.includes("worker"));
    expect(labels).toEqual(names);
  });

  it("carries the spec's data: rows, columns, CSV in full precision, table cells rounded", () => {
    const data = chartData(consensus);
    expect(data.columns).toEqual(["series", "turn", "consensus"]);
    // The mediator rule's row, then three turns per series.
    expect(data.rows).toHaveLength(1 + 6);
    expect(data.rows[0]).toEqual(["mediator turn", 1, null]);
    expect(data.rows[2]).toEqual([SERIES[0].label, 1, (5 / 9) * 100]);
    const csv = chartCsv(data).split("\r\n");
    expect(csv[0]).toBe("series,turn,consensus");
    expect(csv[1]).toBe("mediator turn,1,");
    expect(csv[3]).toBe(`C[t] topic-localized · gpt-x,1,${(5 / 9) * 100}`);
    expect(chartCsv({ columns: ["a"], rows: [['say "hi", then go']] })).toBe('a\r\n"say ""hi"", then go"\r\n');
    expect(tableCell((5 / 9) * 100)).toBe("55.556");
    expect(tableCell(null)).toBe("—");
  });

  it("makes a narrow variant: one column of panels, width cut, legends below", () => {
    const narrow = narrowChartSpec(SPECS.timing) as unknown as {
      columns: number;
      spec: { width: number };
      config: { legend: { orient: string } };
    };
    expect(narrow.columns).toBe(1);
    expect(narrow.spec.width).toBe(Math.min(200, NARROW_WIDTH));
    expect(narrow.config.legend.orient).toBe("bottom");
    expect((narrowChartSpec(consensus) as { width: number }).width).toBe(NARROW_WIDTH);
    // The original is untouched.
    expect((consensus as { width: number }).width).toBe(620);
  });
});

describe("the new views' numbers", () => {
  it("computes Wilson 95% intervals equal to the score test inverted numerically", () => {
    for (const [k, n, low, high] of SCORE_TEST_BOUNDS) {
      const ci = wilsonInterval(k, n)!;
      expect(ci[0], `${k}/${n} low`).toBeCloseTo(low, 5);
      expect(ci[1], `${k}/${n} high`).toBeCloseTo(high, 5);
    }
    expect(wilsonInterval(0, 0)).toBeNull();
  });

  it("puts fidelity and gold accuracy in percent with their intervals in the charts' data", () => {
    expect(proportionDot("gpt-x", 8, 10)).toEqual({
      label: "gpt-x",
      estimate: 80,
      low: expect.closeTo(49.0162, 3),
      high: expect.closeTo(94.3318, 3),
      n: 10,
    });
    const gold = chartData(SPECS.gold);
    expect(gold.columns).toEqual(["label", "estimate", "low", "high", "n"]);
    expect(gold.rows[0][0]).toBe("Ann");
    expect(gold.rows[0][2]).toBeCloseTo(15.822, 2);
    expect(gold.rows[0][3]).toBeCloseTo(74.9542, 2);
  });

  it("scatters each method's value on the final snippets only, against the expert mean", () => {
    expect(alignmentPoints(table)).toEqual([
      { method: "Topic-localized evaluator (gpt-x)", unit: "r1 · t1", expert: 3.5, value: 3.25 },
    ]);
  });
});

// Charts measure text by font metrics on the server (text-width.ts), not by Vega's 0.8 em a character: phone titles
// keep their words, long labels are still cut with an ellipsis, and a cut label is never wider than its limit.
import { describe, expect, it } from "vitest";
import type { TopLevelSpec } from "vega-lite";
import { estimateTextWidth, vegaTextWidth } from "../../../app/domain/charts/text-width.ts";
import { renderChart, renderChartSvg } from "../../../app/server/charts/render.server.ts";
import { alignmentScatterSpec } from "../../../app/domain/charts/views.ts";

/** The text of every <text> element of a drawing, unescaped enough for these labels. */
const texts = (svg: string) =>
  [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1].replace(/&amp;/g, "&").replace(/&quot;/g, '"'));

describe("estimateTextWidth", () => {
  it("adds the regular face's advances, with 2 % to spare", () => {
    // 0 . 2 5 in DejaVu Sans: 636 + 318 + 636 + 636 thousandths of an em.
    expect(estimateTextWidth("0.25", 11)).toBeCloseTo((2226 / 1000) * 11 * 1.02, 12);
    expect(estimateTextWidth("", 11)).toBe(0);
    expect(estimateTextWidth("abc", 0)).toBe(0);
  });

  it("measures bold wider, accented letters as their base, CJK at a full em", () => {
    expect(estimateTextWidth("Persona fidelity", 14, "bold")).toBeGreaterThan(
      estimateTextWidth("Persona fidelity", 14),
    );
    expect(estimateTextWidth("Persona fidelity", 14, 700)).toBe(estimateTextWidth("Persona fidelity", 14, "bold"));
    expect(estimateTextWidth("façade", 12)).toBe(estimateTextWidth("facade", 12));
    expect(estimateTextWidth("中", 10)).toBeCloseTo(10 * 1.02, 12);
    // Narrow letters are narrow: the old guess made "iiii" as wide as "MMMM".
    expect(estimateTextWidth("iiii", 11)).toBeLessThan(estimateTextWidth("MMMM", 11) / 3);
  });
});

describe("vegaTextWidth (Vega's textMetrics.width)", () => {
  it("reads the item's font size (11 when unset), trims the line, and answers 0 for no text", () => {
    expect(vegaTextWidth({ fontSize: 12 }, "  ab  ")).toBe(estimateTextWidth("ab", 12));
    expect(vegaTextWidth({}, "ab")).toBe(estimateTextWidth("ab", 11));
    expect(vegaTextWidth({ fontSize: 12 }, null)).toBe(0);
    expect(vegaTextWidth({ fontSize: 0 }, "ab")).toBe(0);
  });

  it("caps the width at the item's limit, so a cut line is bounded by it", () => {
    const long = "Qwen/Qwen2.5-72B-Instruct at temperature 0.7";
    expect(estimateTextWidth(long, 11)).toBeGreaterThan(100);
    expect(vegaTextWidth({ fontSize: 11, limit: 100 }, long)).toBe(100);
    expect(vegaTextWidth({ fontSize: 11, limit: 100 }, "m1")).toBe(estimateTextWidth("m1", 11));
  });
});

describe("charts drawn with the estimate", () => {
  it("keeps a phone drawing's whole title where Vega's own guess cut it after 27 characters", async () => {
    const points = [
      { method: "SoCRATES judge", unit: "run 1, topic 1", expert: 3, value: 3.5 },
      { method: "ProMediate per-turn judge", unit: "run 1, topic 1", expert: 4, value: 2.5 },
    ];
    const chart = await renderChart(alignmentScatterSpec(points, "Each method against the expert mean"));
    expect(texts(chart.narrowSvg)).toContain("Each method against the expert mean");
    expect(texts(chart.svg)).toContain("Each method against the expert mean");
    // Every legend label in full on the phone too.
    expect(texts(chart.narrowSvg)).toEqual(expect.arrayContaining(["SoCRATES judge", "ProMediate per-turn judge"]));
  });

  it("still cuts a label past its limit with an ellipsis, to at most the limit; short ones stay whole", async () => {
    const long = "a backbone with a very long name that cannot fit in the room the axis gives it";
    const spec = {
      data: {
        values: [
          { name: long, v: 1 },
          { name: "short", v: 2 },
        ],
      },
      mark: "bar",
      encoding: {
        y: { field: "name", type: "nominal", axis: { labelLimit: 120 } },
        x: { field: "v", type: "quantitative" },
      },
    } as TopLevelSpec;
    const drawn = texts(await renderChartSvg(spec));
    expect(drawn).toContain("short");
    const cut = drawn.find((t) => t.startsWith("a backbone"));
    expect(cut).toMatch(/…$/);
    expect(estimateTextWidth(cut as string, 11)).toBeLessThanOrEqual(120);
    // The cut keeps as much as fits: one more character would pass the limit.
    const kept = (cut as string).slice(0, -1);
    expect(estimateTextWidth(`${long.slice(0, kept.length + 1)}…`, 11)).toBeGreaterThanOrEqual(120);
  });
});

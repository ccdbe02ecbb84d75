// renderChartSvg gives tooltip marks a native <title> per item (hover in the inlined SVG), escaped.
import { describe, expect, it } from "vitest";
import type { TopLevelSpec } from "vega-lite";
import { renderChartSvg, withHoverTitles } from "../../../app/server/charts/render.server.ts";
import { timingLines } from "../../../app/domain/benchmark/charts/timing-lines.ts";

const tricky = `calm <script>alert(1)</script> & "quoted" 'single'`;
const lineWithPoints = (tooltip: boolean): TopLevelSpec =>
  ({
    data: {
      values: [
        { t: 0, v: 10, why: tricky },
        { t: 1, v: 20, why: "plain" },
      ],
    },
    mark: { type: "line", point: true },
    encoding: {
      x: { field: "t", type: "quantitative" },
      y: { field: "v", type: "quantitative" },
      ...(tooltip ? { tooltip: [{ field: "why" }] } : {}),
    },
  }) as TopLevelSpec;

const titles = (svg: string) => [...svg.matchAll(/<title>([^<]*)<\/title>/g)].map((m) => m[1]);

describe("renderChartSvg hover titles", () => {
  it("gives each point of a tooltip mark a <title> with its tooltip text, escaped", async () => {
    const svg = await renderChartSvg(lineWithPoints(true));
    const found = titles(svg);
    // Two points, one title each; the line (one element for both data) gets none.
    expect(found).toHaveLength(2);
    // The label is the tooltip's fields (withRoundedHover makes it the mark's description).
    expect(found[0]).toBe("why: calm &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot; 'single'");
    expect(found[1]).toBe("why: plain");
    expect(svg).not.toContain("<script");
    // The title names the point; the ARIA attributes that said the same again are gone.
    expect(svg).toMatch(/<path [^>]*><title>why: plain<\/title><\/path>/);
    expect(svg).not.toMatch(/<path [^>]*(aria-label|aria-roledescription|role)="[^"]*"[^>]*><title>/);
  });

  it("adds nothing to a chart without tooltips", async () => {
    expect(titles(await renderChartSvg(lineWithPoints(false)))).toEqual([]);
  });

  it("keeps the existing charts rendering, with titles in every facet cell", async () => {
    const rows = [
      { group: "A", bin: "0–0.5", mediator: "m1", ie: 12.5, count: 3 },
      { group: "B", bin: "0.5–1", mediator: "m1", ie: -4, count: 1 },
    ];
    const svg = await renderChartSvg(
      timingLines({ title: "Timing", rows, groups: ["A", "B"], bins: ["0–0.5", "0.5–1"], mediators: ["m1"] }),
    );
    expect(svg.startsWith("<svg")).toBe(true);
    const found = titles(svg);
    expect(found).toHaveLength(2);
    expect(found.some((t) => t.includes("mediator: m1") && t.includes("12.5"))).toBe(true);
  });

  it("titles a tooltip mark drawn after a mark with no items (an empty, self-closing group)", async () => {
    const svg = await renderChartSvg({
      layer: [
        { data: { values: [] }, mark: { type: "rule", aria: false }, encoding: { y: { datum: 1 } } },
        {
          data: {
            values: [
              { x: 1, why: "first" },
              { x: 2, why: "second" },
            ],
          },
          mark: "point",
          encoding: { x: { field: "x", type: "quantitative" }, tooltip: [{ field: "why" }] },
        },
      ],
    } as TopLevelSpec);
    expect(svg).toMatch(/<g class="mark-rule role-mark layer_0_marks"[^>]*\/>/);
    expect(titles(svg)).toEqual(["why: first", "why: second"]);
    const empty = `<g class="mark-rule role-mark a" aria-hidden="true"/><g class="mark-symbol role-mark b"><path aria-label="y"/></g>`;
    expect(withHoverTitles(empty, new Set(["b"]))).toBe(
      `<g class="mark-rule role-mark a" aria-hidden="true"/><g class="mark-symbol role-mark b"><path><title>y</title></path></g>`,
    );
  });

  it("leaves marks it was not told about alone", () => {
    const svg = `<g class="mark-symbol role-mark other"><path aria-label="x" role="graphics-symbol" d="M0"/></g>`;
    expect(withHoverTitles(svg, new Set(["mine"]))).toBe(svg);
    expect(withHoverTitles(svg, new Set(["other"]))).toBe(
      `<g class="mark-symbol role-mark other"><path d="M0"><title>x</title></path></g>`,
    );
  });
});

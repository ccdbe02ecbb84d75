/**
 * The server's text-width estimate (app/domain/charts/text-width.ts) against what Chromium draws: each label's
 * estimate is at least its drawn width (a label never overruns the room Vega gives it) and close to it (Vega's own
 * guess without a canvas was 1.3–1.6× too wide); and in drawn charts, wide and narrow, no text runs off the drawing.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TopLevelSpec } from "vega-lite";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { CHART_FONT, estimateTextWidth } from "../../app/domain/charts/text-width.ts";
import { alignmentScatterSpec } from "../../app/domain/charts/views.ts";
import { renderChart } from "../../app/server/charts/render.server.ts";

const LABELS = [
  "Each method against the expert mean",
  "Agreement with the expert mean (Pearson r)",
  "ProMediate per-turn judge",
  "Non-expert baseline",
  "link worker 3f9a2c71",
  "Qwen/Qwen2.5-72B-Instruct",
  "gpt-4o-mini",
  "0.25",
  "1,000",
  "Emotion trajectory — party A",
  "Ålesund façade naïve",
  "Share of runs ending in agreement (%)",
  "α = 0.812 ± 0.04; 13 of 20 ≥ 3",
  "THE QUICK BROWN FOX",
  "iiiiiiii llllllll",
  "MMMM WWWW",
];

/** Drawn widths, px, of `labels` in the charts' font in an SVG <text>. */
function drawnWidths(page: Page, labels: string[], size: number, weight: string): Promise<number[]> {
  return page.evaluate(
    ({ labels, size, weight, font }) => {
      const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
      document.body.appendChild(svg);
      return labels.map((label) => {
        const text = document.createElementNS("http://www.w3.org/2000/svg", "text");
        text.setAttribute("font-family", font);
        text.setAttribute("font-size", String(size));
        text.setAttribute("font-weight", weight);
        text.textContent = label;
        svg.appendChild(text);
        return text.getComputedTextLength();
      });
    },
    { labels, size, weight, font: CHART_FONT },
  );
}

/** Every <text> of the page's drawing whose box leaves the drawing's box (by more than half a pixel). */
function overruns(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const svg = document.querySelector("svg") as SVGSVGElement;
    const frame = svg.getBoundingClientRect();
    return [...svg.querySelectorAll("text")]
      .filter((t) => {
        const box = t.getBoundingClientRect();
        return box.left < frame.left - 0.5 || box.right > frame.right + 0.5;
      })
      .map((t) => t.textContent ?? "");
  });
}

describe.runIf(runBrowserTests)("chart text widths in Chromium", () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("estimates every label at least as wide as drawn, and within 20 % of it", async () => {
    await page.setContent("<!doctype html><html><body></body></html>");
    for (const [size, weight] of [
      [11, "normal"],
      [12, "normal"],
      [14, "bold"],
    ] as const) {
      const drawn = await drawnWidths(page, LABELS, size, weight);
      LABELS.forEach((label, i) => {
        const estimate = estimateTextWidth(label, size, weight);
        expect(estimate, `${label} at ${size} px ${weight}`).toBeGreaterThanOrEqual(drawn[i]);
        expect(estimate, `${label} at ${size} px ${weight}`).toBeLessThanOrEqual(1.2 * drawn[i]);
      });
    }
  });

  it("draws no text past the edge of a chart, wide or narrow, with long names in its legend and title", async () => {
    const methods = ["SoCRATES judge (Qwen/Qwen2.5-72B-Instruct)", "ProMediate per-turn judge", "Non-expert baseline"];
    const points = methods.flatMap((method, m) =>
      [1, 2, 3].map((u) => ({ method, unit: `run ${u}, topic 1`, expert: u + 1, value: Math.min(5, u + m * 0.5) })),
    );
    const chart = await renderChart(
      alignmentScatterSpec(points, "Each method against the expert mean, every final snippet and topic"),
    );
    const bars = await renderChart({
      title: "Share of runs ending in agreement (%) by mediator backbone",
      data: { values: methods.map((name, i) => ({ name, v: 10 + i })) },
      mark: "bar",
      width: 360,
      encoding: { y: { field: "name", type: "nominal" }, x: { field: "v", type: "quantitative" } },
    } as TopLevelSpec);
    for (const svg of [chart.svg, chart.narrowSvg, bars.svg, bars.narrowSvg]) {
      await page.setContent(`<!doctype html><html><body style="margin:0">${svg}</body></html>`);
      expect(await overruns(page)).toEqual([]);
    }
  });
});

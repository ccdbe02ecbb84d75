/**
 * The research pages on a phone (390 px) and on a laptop (1280 px), in Chromium against the real
 * server: the page never scrolls sideways (wide tables and charts scroll inside their own box,
 * with a "scroll →" cue), and chart axis text stays legible — at least 10 px as drawn, which is
 * its computed font size times the scale the SVG is drawn at.
 */
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { DEMO, signIn } from "../../harness/login.ts";

const demo = JSON.parse(readFileSync("demo/demo-transactional.json", "utf8")) as {
  runs: { id: string; mediated: boolean }[];
};
const runPath = `/runs/${encodeURIComponent(demo.runs.find((r) => r.mediated)!.id)}`;
const PAGES = [
  { name: "run viewer", path: runPath, chart: "consensus-chart" },
  { name: "study dashboard", path: "/admin/studies/1", chart: "trend-chart" },
  { name: "runs", path: "/runs", chart: null },
  { name: "scenarios", path: "/scenarios", chart: null },
] as const;

/** How wide the document scrolls, and the viewport. */
const widths = (page: Page) =>
  page.evaluate(() => ({ scroll: document.scrollingElement!.scrollWidth, viewport: window.innerWidth }));

/**
 * Every axis text of the chart's drawing on screen (a ChartFrame holds a wide and a narrow one, CSS shows one): its
 * computed font size and the size it is drawn at (font size × the SVG's scale). Vega SVGs group axis text under
 * `.role-axis-label`/`.role-axis-title`.
 */
function axisText(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((figure) =>
    [...figure.querySelectorAll(".role-axis-label text, .role-axis-title text")]
      .filter((t) => (t as SVGTextElement).ownerSVGElement!.getBoundingClientRect().width > 0)
      .map((t) => {
        const svg = (t as SVGTextElement).ownerSVGElement!;
        const computed = parseFloat(getComputedStyle(t).fontSize);
        return {
          text: t.textContent,
          computed,
          drawn: (computed * svg.getBoundingClientRect().width) / svg.viewBox.baseVal.width,
        };
      }),
  );
}

describe.skipIf(!runBrowserTests)("research pages on small and large screens", { timeout: 120_000 }, () => {
  let server: AppServer;
  let browser: Browser;
  const pages: Record<number, Page> = {};

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 844 } });
      pages[width] = await context.newPage();
      await signIn(pages[width], server.url, DEMO.admin);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of [390, 1280]) {
    for (const target of PAGES) {
      it(`${target.name} at ${width} px: no sideways page scroll${target.chart ? ", chart axis text at least 10 px" : ""}`, async () => {
        const page = pages[width];
        await page.goto(server.url + target.path);
        await page.locator("h1").first().waitFor();
        const { scroll, viewport } = await widths(page);
        expect(viewport).toBe(width);
        expect(scroll, target.path).toBeLessThanOrEqual(viewport);
        if (target.chart) {
          const texts = await axisText(page, target.chart);
          expect(texts.length).toBeGreaterThan(3);
          for (const t of texts) {
            expect(t.computed, t.text ?? "").toBeGreaterThanOrEqual(10);
            expect(t.drawn, t.text ?? "").toBeGreaterThanOrEqual(10);
          }
        }
      });
    }
  }

  it("shows a wide table scrolling in its own box with a 'scroll →' cue on a phone, and no cue where it fits", async () => {
    const phone = pages[390];
    await phone.goto(server.url + "/scenarios");
    const box = phone.locator(".scroll-x").filter({ has: phone.locator("table") });
    await expect.poll(() => box.getAttribute("data-overflowing")).toBe("");
    expect(await box.locator(".scroll-cue").textContent()).toBe("scroll →");
    const body = box.locator(".scroll-x-body");
    const overflow = await body.evaluate((el) => ({
      scroll: el.scrollWidth,
      client: el.clientWidth,
      style: getComputedStyle(el).overflowX,
    }));
    expect(overflow.scroll).toBeGreaterThan(overflow.client);
    expect(overflow.style).toBe("auto");

    const laptop = pages[1280];
    await laptop.goto(server.url + "/scenarios");
    await laptop.locator("table").waitFor();
    expect(await laptop.locator(".scroll-cue").count()).toBe(0);
  });
});

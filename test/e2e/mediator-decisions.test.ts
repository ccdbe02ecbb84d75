/**
 * The run page of a socially intelligent mediator's run (the demo benchmark's, seeded on start), in Chromium on a
 * phone: the "Mediator decisions" section names each decision's motivation against its threshold, and an
 * intervention's candidates table shows the four strategies with their ratings and which was voiced, scrolling in its
 * own box rather than widening the page.
 */
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MediatorDecision, Run } from "../../app/domain/bundle.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { DEMO, signIn } from "../../harness/login.ts";

const demo = JSON.parse(readFileSync("demo/benchmark/demo-benchmark.json", "utf8")) as { runs: Run[] };
const social = demo.runs.find(
  (r) => r.config.mediator_mode === "social" && r.mediator_decisions?.some((d) => d.candidates),
)!;
const engaged = social.mediator_decisions!.find((d) => d.candidates) as Required<MediatorDecision>;

describe.skipIf(!runBrowserTests)("the run page's mediator decisions in Chromium", { timeout: 120_000 }, () => {
  let server: AppServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
    await signIn(page, server.url, DEMO.admin);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows a social run's candidates with strategy, ratings and the one voiced", async () => {
    await page.goto(`${server.url}/runs/${encodeURIComponent(social.id)}`);
    await page.getByRole("heading", { name: "Mediator decisions", level: 2 }).waitFor();
    await expect
      .poll(() =>
        page
          .getByRole("heading", {
            level: 3,
            name: `After turn ${engaged.after_turn}: stepped in (motivation ${engaged.motivation} vs threshold ${engaged.threshold})`,
          })
          .count(),
      )
      .toBe(1);
    const table = page.getByRole("table", {
      name: `Candidate interventions after turn ${engaged.after_turn}, rated 1–5`,
    });
    expect(await table.getByRole("columnheader").allTextContents()).toEqual([
      "Strategy",
      "Draft",
      "Perception",
      "Emotion",
      "Cognition",
      "Communication",
      "Mean",
      "Voiced",
    ]);
    const rows = table.locator("tbody tr");
    expect(await rows.count()).toBe(4);
    for (const [i, c] of engaged.candidates.entries()) {
      const cells = await rows.nth(i).locator("th, td").allTextContents();
      expect(cells[0]).toBe(c.strategy);
      expect(cells.slice(2, 6)).toEqual(
        [c.ratings.perception, c.ratings.emotion, c.ratings.cognition, c.ratings.communication].map(String),
      );
      expect(cells[7]).toBe(i === engaged.chosen ? "✓ chosen" : "");
    }
    // Wide tables scroll in their own box: the page itself never scrolls sideways on a phone.
    const widths = await page.evaluate(() => ({
      scroll: document.scrollingElement!.scrollWidth,
      viewport: window.innerWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.viewport);
  });
});

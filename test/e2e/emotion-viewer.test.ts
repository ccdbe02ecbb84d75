/**
 * The run viewer's emotion lines in a real browser: a database holding a hand-written bundle
 * whose mediated run carries self-reported emotion (test/fixtures/emotion-fixture.ts), served by
 * the production server; the Emotion section sits under the consensus chart with a line per
 * party, the mediator's turn as a rule, and a point whose hover title carries the party's reason.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../app/server/annotation/accounts.server.ts";
import { importBundleFiles } from "../../app/server/bundle-store.server.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { signIn } from "../../harness/login.ts";
import { tempDb } from "../../harness/temp-db.ts";
import { emotionFixtureBundle, SELF_REPORTED } from "../fixtures/emotion-fixture.ts";

const ADMIN = { username: "admin", password: "test-admin-pass" };

describe.runIf(runBrowserTests)("run viewer emotion lines in Chromium", () => {
  const cleanups: (() => unknown)[] = [];
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    const t = await tempDb();
    cleanups.push(t.cleanup);
    await createAccount(t.db, {
      username: ADMIN.username,
      displayName: "Admin",
      role: "admin",
      password: ADMIN.password,
    });
    await importBundleFiles(t.db, [{ file: "emotion.json", text: JSON.stringify(emotionFixtureBundle()) }]);
    server = await startAppServer({ dbPath: t.path });
    cleanups.push(() => server.stop());
    browser = await launchChromium();
    cleanups.push(() => browser.close());
  }, 120_000);
  afterAll(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it("shows a line per party under the consensus chart, the mediator turn marked, the reason on hover", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, ADMIN);
    await page.goto(`${server.url}/runs/${encodeURIComponent("fx-1:med")}`);
    const chart = page.getByTestId("emotion-chart");
    await chart.waitFor();
    expect(await chart.getAttribute("data-source")).toBe("self-report");

    // Under the consensus chart: the emotion figure comes after it in the document.
    const follows = await page.evaluate(() => {
      const consensus = document.querySelector('[data-testid="consensus-chart"]')!;
      const emotion = document.querySelector('[data-testid="emotion-chart"]')!;
      return Boolean(consensus.compareDocumentPosition(emotion) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(follows).toBe(true);

    // One line per party (Buyer, Seller), one rule for the mediator's turn 3.
    expect(await chart.locator('.chart-wide svg [aria-roledescription="line mark"]').count()).toBe(2);
    const rules = chart.locator(".chart-wide svg .mediator_turns_marks line");
    expect(await rules.count()).toBe(1);
    expect(await rules.first().locator("title").textContent()).toBe("mediator, turn 3");

    // The buyer's point at turn 4 carries its reason as the native hover title.
    const reason = SELF_REPORTED[4].emotion_reason;
    const point = chart
      .locator(".chart-wide svg .emotion_points_marks path")
      .filter({ has: page.locator("title", { hasText: reason }) });
    expect(await point.count()).toBe(1);
    await point.hover();
    expect(await point.locator("title").textContent()).toBe(`Buyer, turn 4: 58 — ${reason}`);
    // Reasons are markup-safe text, never parsed as elements.
    expect(
      await chart
        .locator(".chart-wide svg title", { hasText: 'Seller relaxes <cautiously> & "mostly" agrees' })
        .count(),
    ).toBe(1);
    expect(await page.locator("cautiously").count()).toBe(0);
    expect((browser as Browser & { cspViolations: string[] }).cspViolations).toEqual([]);
    await page.close();
  });

  it("names the party an emotion judge failed on", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, ADMIN);
    await page.goto(`${server.url}/runs/${encodeURIComponent("fx-1:unmed")}`);
    await page.getByTestId("emotion-failed").getByText("Seller").waitFor();
    expect(await page.getByTestId("emotion-chart").getAttribute("data-source")).toBe("judge mock-emotion-judge");
    await page.close();
  });
});

/**
 * Issue 32, the A/B task on a phone and on a laptop, in Chromium against the real server. At
 * 390 px: the first turn shows on arrival (with the first item's guidelines open), both
 * conversations are one tap or arrow key apart (WAI-ARIA tabs), and the answer bar stays under
 * 20% of the screen. At 1280 px: the conversations stand side by side, each in a box that uses
 * most of the window's height and scrolls by itself. At both widths an item is labelled end to
 * end (keys at 390 px, taps/clicks at 1280 px) and the label is read back from the database.
 */
import Database from "better-sqlite3";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAbStudy } from "../../app/server/annotation/studies.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { loadGuidelines } from "../../app/server/templates.server.ts";
import { AB_REACTIVENESS } from "../../app/task-types/ab-reactiveness/label.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { DEMO, signIn } from "../../harness/login.ts";

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 900 };

describe.runIf(runBrowserTests)("the A/B task at 390 px and 1280 px (issue 32)", { timeout: 180_000 }, () => {
  let server: AppServer;
  let browser: Browser;
  let study = 0;

  const choices = (): { itemId: number; choice: string }[] => {
    const db = new Database(server.dbPath, { readonly: true });
    try {
      return db
        .prepare(
          `SELECT l.study_item_id AS itemId, json_extract(r.payload, '$.choice') AS choice
           FROM labels l JOIN study_items i ON i.id = l.study_item_id JOIN annotators n ON n.id = l.annotator_id
           JOIN label_revisions r ON r.label_id = l.id WHERE i.study_id = ? AND n.username = 'ada' ORDER BY r.id`,
        )
        .all(study) as { itemId: number; choice: string }[];
    } finally {
      db.close();
    }
  };

  /** A logged-in page on the study's next item, once the item takes keys. */
  const openTask = async (viewport: typeof PHONE): Promise<{ context: BrowserContext; page: Page; item: string }> => {
    const context = await browser.newContext({ viewport, hasTouch: viewport.width < 600 });
    const page = await context.newPage();
    await signIn(page, server.url, DEMO.ada);
    await page.goto(`${server.url}/annotate/${study}/next`);
    const shell = page.locator('[data-testid="task-page"][data-item]:not([data-busy])');
    await shell.waitFor();
    await page.waitForLoadState("networkidle");
    return { context, page, item: (await shell.getAttribute("data-item"))! };
  };
  const box = async (page: Page, selector: string) => (await page.locator(selector).first().boundingBox())!;

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    const db = await openDatabase(server.dbPath);
    study = await createAbStudy(db, {
      name: "A/B layout",
      pool: "expert",
      guidelines: loadGuidelines(AB_REACTIVENESS),
      config: { seed: 32 },
    });
    db.$client.close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("at 390 px the first turn shows on arrival above a compact answer bar, guidelines open", async () => {
    const { context, page } = await openTask(PHONE);
    expect(await page.getByRole("button", { name: /Guidelines/ }).getAttribute("aria-expanded")).toBe("true");
    const bar = await box(page, "form.ab-form");
    expect(bar.height).toBeLessThan(0.2 * PHONE.height);
    // Nothing pushes the page sideways.
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect(bar.y + bar.height).toBeLessThanOrEqual(PHONE.height + 1);
    const firstTurn = await box(page, 'section[data-side="A"] li.turn');
    expect(firstTurn.y).toBeGreaterThan(0);
    // Its speaker line and the start of the utterance are above the bar, not under it.
    expect(firstTurn.y + 40).toBeLessThan(bar.y);
    expect(await page.locator('section[data-side="B"]').isVisible()).toBe(false);
    // The radios say what choosing them means.
    await page.getByRole("radio", { name: "A is more reactive", exact: true }).waitFor();
    await page.getByRole("radio", { name: "B is more reactive", exact: true }).waitFor();
    await context.close();
  });

  it("at 390 px a tap on a tab and the arrow keys switch between the conversations", async () => {
    const { context, page } = await openTask(PHONE);
    const tabA = page.getByRole("tab", { name: "Conversation A" });
    const tabB = page.getByRole("tab", { name: "Conversation B" });
    expect(await tabA.getAttribute("aria-selected")).toBe("true");
    expect(await tabB.getAttribute("aria-selected")).toBe("false");
    const panelOf = async (tab: typeof tabA) => page.locator(`[id="${await tab.getAttribute("aria-controls")}"]`);
    const panelA = await panelOf(tabA);
    const panelB = await panelOf(tabB);
    expect(await panelA.getAttribute("role")).toBe("tabpanel");
    expect(await panelA.getAttribute("data-side")).toBe("A");
    expect(await panelB.getAttribute("data-side")).toBe("B");

    // Down in A, one tap on B shows B from its first turn, the tab bar still in view.
    await page.evaluate(() => window.scrollTo(0, 1500));
    expect(await tabB.isVisible()).toBe(true);
    await tabB.tap();
    expect(await tabB.getAttribute("aria-selected")).toBe("true");
    expect(await panelB.isVisible()).toBe(true);
    expect(await panelA.isVisible()).toBe(false);
    const firstOfB = await panelB.locator("li.turn").first().boundingBox();
    expect(firstOfB!.y).toBeGreaterThanOrEqual(0);
    expect(firstOfB!.y).toBeLessThan(0.2 * PHONE.height);

    // Keyboard: arrows move focus and selection together; Home and End go to the ends.
    await tabB.focus();
    await page.keyboard.press("ArrowLeft");
    expect(await tabA.getAttribute("aria-selected")).toBe("true");
    expect(await tabA.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await panelA.isVisible()).toBe(true);
    expect(await panelB.isVisible()).toBe(false);
    await page.keyboard.press("End");
    expect(await tabB.getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("Home");
    expect(await tabA.getAttribute("aria-selected")).toBe("true");
    // Only the selected tab is in the Tab order.
    expect([await tabA.getAttribute("tabindex"), await tabB.getAttribute("tabindex")]).toEqual(["0", "-1"]);
    await context.close();
  });

  it("at 390 px an item is labelled with keys alone and the label is stored", async () => {
    const { context, page, item } = await openTask(PHONE);
    await page.keyboard.press("2");
    expect(
      await page.getByRole("radio", { name: "B is more reactive", exact: true }).getAttribute("aria-checked"),
    ).toBe("true");
    // The tab says which conversation was chosen.
    expect(await page.getByRole("tab", { name: /Conversation B/ }).textContent()).toContain("chosen");
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => !u.pathname.endsWith(`/items/${item}`));
    expect(choices()).toContainEqual({ itemId: Number(item), choice: "B" });
    await context.close();
  });

  it("at 1280 px the conversations stand side by side, each using most of the height in a box of its own", async () => {
    const { context, page } = await openTask(LAPTOP);
    expect(await page.getByRole("tablist").isVisible()).toBe(false);
    const a = page.getByRole("region", { name: "Conversation A" });
    const b = page.getByRole("region", { name: "Conversation B" });
    await a.evaluate((el) => el.scrollIntoView({ block: "start" }));
    const [boxA, boxB] = [(await a.boundingBox())!, (await b.boundingBox())!];
    expect(Math.abs(boxA.y - boxB.y)).toBeLessThan(2);
    expect(boxA.x + boxA.width).toBeLessThan(boxB.x);
    for (const side of [boxA, boxB]) {
      expect(side.width).toBeGreaterThan(0.4 * LAPTOP.width);
      expect(side.height).toBeGreaterThan(0.75 * LAPTOP.height);
    }
    const scrolling = await a.evaluate((el) => ({
      overflow: getComputedStyle(el).overflowY,
      scrolls: el.scrollHeight > el.clientHeight,
    }));
    expect(scrolling).toEqual({ overflow: "auto", scrolls: true });
    // Both boxes and the bar fit the window at once.
    const bar = await box(page, "form.ab-form");
    expect(bar.height).toBeLessThan(0.12 * LAPTOP.height);
    expect(boxA.y + boxA.height).toBeLessThanOrEqual(bar.y + 1);
    await context.close();
  });

  it("at 1280 px an item is labelled with clicks and the label is stored", async () => {
    const { context, page, item } = await openTask(LAPTOP);
    await page.getByRole("radio", { name: "A is more reactive", exact: true }).click();
    await page.getByRole("button", { name: /Submit and next/ }).click();
    await page.waitForURL((u) => !u.pathname.endsWith(`/items/${item}`));
    expect(choices()).toContainEqual({ itemId: Number(item), choice: "A" });
    await context.close();
  });
});

/**
 * The task page's features of issue 32 in Chromium through the real server: the draft's saved state (and its retry
 * while the database is locked), messages cleared when the item changes, the heading, title, announcement and focus of
 * the next item, and session statistics. Results are read back from the database.
 */
import Database from "better-sqlite3";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAbStudy } from "../../app/server/annotation/studies.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { DEMO, signIn } from "../../harness/login.ts";
import { readRows } from "../helpers/read-rows.ts";

describe.runIf(runBrowserTests)("task page features in Chromium", { timeout: 180_000 }, () => {
  let server: AppServer;
  let browser: Browser;
  let draftStudy = 0;
  let flowStudy = 0;
  let commentStudy = 0;
  let autoStudy = 0;

  const read = <T>(sql: string, ...args: unknown[]) => readRows<T>(server.dbPath, sql, ...args);
  const itemsOf = (studyId: number) =>
    read<{ id: number }>(`SELECT id FROM study_items WHERE study_id = ? ORDER BY position`, studyId).map((r) => r.id);
  const waitForItem = async (page: Page, itemId: number) => {
    await page.locator(`[data-testid="task-page"][data-item="${itemId}"]:not([data-busy])`).waitFor();
    await page.waitForLoadState("networkidle");
  };
  const onScreen = (page: Page) =>
    page.locator('[data-testid="task-page"]:not([data-busy])').getAttribute("data-item").then(Number);
  const draftsOf = (username: string) =>
    read<{ itemId: number; payload: string }>(
      `SELECT d.study_item_id AS itemId, d.payload FROM label_drafts d JOIN annotators n ON n.id = d.annotator_id
       WHERE n.username = ?`,
      username,
    ).map((d) => ({ itemId: d.itemId, choice: JSON.parse(d.payload).choice as string }));

  beforeAll(async () => {
    // A write waits at most a second for the lock, so a test holding it sees the 503 soon.
    server = await startAppServer({ env: { SOCRATES_WRITE_WAIT_MS: "1000" } });
    browser = await launchChromium();
    const db = await openDatabase(server.dbPath);
    draftStudy = await createAbStudy(db, { name: "Drafts", pool: "expert" });
    flowStudy = await createAbStudy(db, { name: "Item flow", pool: "expert" });
    commentStudy = await createAbStudy(db, { name: "Comments", pool: "expert" });
    autoStudy = await createAbStudy(db, { name: "Auto-advance", pool: "expert" });
    db.$client.close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows the draft's saved state, and while the database is locked says it is not saved and retries", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.ben);
    await page.goto(`${server.url}/annotate/${draftStudy}/next`);
    const item = await onScreen(page);
    await waitForItem(page, item);
    const status = page.getByTestId("draft-status");
    expect(await status.textContent()).toBe("");

    // A draft save is its POST alone: the page's data is not fetched again after it (draft-revalidation.ts).
    const sent: string[] = [];
    const record = (r: { method: () => string; url: () => string }) =>
      sent.push(`${r.method()} ${new URL(r.url()).pathname}`);
    page.on("request", record);
    await page.keyboard.press("1");
    await page.locator('[data-testid="draft-status"][data-phase="saved"]').waitFor();
    await page.waitForLoadState("networkidle");
    page.off("request", record);
    expect(sent).toEqual([`POST /annotate/${draftStudy}/items/${item}.data`]);
    expect(await status.textContent()).toMatch(/^Saved · \d+ s ago$/);
    // The ticking age is not read out: the status region's accessible text is the state alone.
    expect(await status.locator('[aria-hidden="true"]').textContent()).toMatch(/^ · \d+ s ago$/);
    expect(draftsOf("ben")).toEqual([{ itemId: item, choice: "A" }]);

    const lock = new Database(server.dbPath);
    try {
      lock.exec("BEGIN IMMEDIATE");
      await page.keyboard.press("2");
      await page.locator('[data-testid="draft-status"][data-phase="retrying"]').waitFor({ timeout: 20_000 });
      expect(await status.textContent()).toBe("Not saved — retrying");
    } finally {
      lock.exec("COMMIT");
      lock.close();
    }
    await page.locator('[data-testid="draft-status"][data-phase="saved"]').waitFor({ timeout: 20_000 });
    expect(draftsOf("ben")).toEqual([{ itemId: item, choice: "B" }]);
    await page.close();
  });

  it("the next item: an h1, a new title, an announcement, focus on its heading; the last item's messages and saved state are gone; session statistics count it", async () => {
    const [first, second, third] = itemsOf(flowStudy);
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.ada);
    await page.goto(`${server.url}/annotate/${flowStudy}/next`);
    await waitForItem(page, first);
    expect(await page.locator("h1").count()).toBe(1);
    expect(await page.locator("h1").textContent()).toContain("Watch");
    const firstTitle = await page.title();
    expect(firstTitle).toContain(`Item ${first}`);
    const stats = page.getByTestId("session-stats");
    expect(await stats.locator('[data-stat="items"]').textContent()).toBe("0 items");
    expect(await stats.locator('[data-stat="left"]').textContent()).toBe("—");

    await page.getByRole("button", { name: /^Flag/ }).click();
    await page.getByLabel(/What is wrong with this item/).fill("Conversation B stops mid-sentence.");
    await page.getByRole("button", { name: /Send flag/ }).click();
    await page.getByTestId("flag-status").getByText("Flag sent").waitFor();
    await page.keyboard.press("1");
    await page.locator('[data-testid="draft-status"][data-phase="saved"]').waitFor();
    // The submit alone: its answer carries the next item's page (next-page.server.ts), so nothing else is fetched.
    const sent: string[] = [];
    const record = (r: { method: () => string; url: () => string }) => {
      const url = new URL(r.url());
      if (url.pathname.endsWith(".data")) sent.push(`${r.method()} ${url.pathname}${url.search}`);
    };
    page.on("request", record);
    await page.keyboard.press("Control+Enter");
    await waitForItem(page, second);
    page.off("request", record);
    expect(sent).toEqual([`POST /annotate/${flowStudy}/items/${first}.data`]);

    expect(await page.getByTestId("flag-status").count()).toBe(0);
    expect(await page.getByTestId("draft-status").getAttribute("data-phase")).toBe("idle");
    expect(await page.title()).toContain(`Item ${second}`);
    expect(await page.title()).not.toBe(firstTitle);
    await expect.poll(() => page.evaluate(() => document.activeElement?.matches("h1.task-title") ?? false)).toBe(true);
    expect(await page.getByTestId("item-announcement").textContent()).toMatch(/^Next item: Watch /);
    expect(await stats.locator('[data-stat="items"]').textContent()).toBe("1 item");
    expect(await stats.locator('[data-stat="median"]').textContent()).toMatch(/^\d+ s$/);
    expect(await stats.locator('[data-stat="left"]').textContent()).toMatch(/^\d+ (s|min)$/);

    // Keys still answer with the heading focused; the session count survives a reload of the page.
    await page.keyboard.press("2");
    await page.keyboard.press("Control+Enter");
    await waitForItem(page, third);
    await page.reload();
    await waitForItem(page, third);
    expect(await stats.locator('[data-stat="items"]').textContent()).toBe("2 items");
    const stored = read<{ itemId: number; payload: string }>(
      `SELECT l.study_item_id AS itemId, r.payload FROM labels l JOIN label_revisions r ON r.label_id = l.id
       JOIN annotators n ON n.id = l.annotator_id JOIN study_items i ON i.id = l.study_item_id
       WHERE n.username = 'ada' AND i.study_id = ? ORDER BY r.id`,
      flowStudy,
    ).map((r) => ({ itemId: r.itemId, choice: JSON.parse(r.payload).choice }));
    expect(stored).toEqual([
      { itemId: first, choice: "A" },
      { itemId: second, choice: "B" },
    ]);
    await page.close();
  });

  it("a comment written under the task is stored with the label, starts the revision, and is shown on the dashboard and in the CSV", async () => {
    const [first, second] = itemsOf(commentStudy);
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.ben);
    await page.goto(`${server.url}/annotate/${commentStudy}/next`);
    await waitForItem(page, first);
    await page.keyboard.press("2");
    const box = page.getByLabel(/Comment for the researchers/);
    await box.fill("B's third turn is cut off, I chose on the rest.");
    // Typing in the box answers nothing (the "1" stays text); Ctrl+Enter from it submits, with the comment.
    await box.press("End");
    await box.pressSequentially(" 1");
    await box.press("Control+Enter");
    await waitForItem(page, second);
    expect(await box.inputValue()).toBe("");
    expect(
      read(
        `SELECT json_extract(r.payload, '$.choice') AS choice, r.comment FROM labels l
         JOIN label_revisions r ON r.label_id = l.id WHERE l.study_item_id = ?`,
        first,
      ),
    ).toEqual([{ choice: "B", comment: "B's third turn is cut off, I chose on the rest. 1" }]);
    await page.goto(`${server.url}/annotate/${commentStudy}/items/${first}`);
    await waitForItem(page, first);
    expect(await box.inputValue()).toBe("B's third turn is cut off, I chose on the rest. 1");
    await page.close();

    const admin = await browser.newPage();
    await signIn(admin, server.url, DEMO.admin);
    await admin.goto(`${server.url}/admin/studies/${commentStudy}`);
    const row = admin.getByTestId("label-comment-row");
    await row.first().waitFor();
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toContain("B's third turn is cut off, I chose on the rest. 1");
    const csv = await (await admin.request.get(`${server.url}/admin/studies/${commentStudy}/labels.csv`)).text();
    expect(csv.split("\r\n")[0]).toContain("submitted_at,comment");
    expect(csv).toContain("B's third turn is cut off, I chose on the rest. 1");
    await admin.close();
  });

  it("auto-advance, set on the settings page, submits an A/B choice and opens the next item; off again, a choice waits", async () => {
    const [first, second, third] = itemsOf(autoStudy);
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.ben);
    const setAutoAdvance = async (on: boolean) => {
      await page.goto(`${server.url}/annotate/settings`);
      await page.getByLabel(/Submit as soon as I choose/).setChecked(on);
      await page.getByRole("button", { name: "Save settings" }).click();
      await page
        .getByTestId("settings-status")
        .getByText(`auto-advance is ${on ? "on" : "off"}`)
        .waitFor();
    };
    await setAutoAdvance(true);
    expect(read(`SELECT auto_advance AS on_ FROM annotators WHERE username = 'ben'`)).toEqual([{ on_: 1 }]);
    await page.goto(`${server.url}/annotate/${autoStudy}/next`);
    await waitForItem(page, first);
    await page.getByText("Settings (auto-advance on)").waitFor();
    await page.keyboard.press("1");
    await waitForItem(page, second);
    await page.keyboard.press("b");
    await waitForItem(page, third);
    const choices = () =>
      read<{ itemId: number; choice: string }>(
        `SELECT l.study_item_id AS itemId, json_extract(r.payload, '$.choice') AS choice FROM labels l
         JOIN label_revisions r ON r.label_id = l.id JOIN study_items i ON i.id = l.study_item_id
         WHERE i.study_id = ? ORDER BY r.id`,
        autoStudy,
      );
    expect(choices()).toEqual([
      { itemId: first, choice: "A" },
      { itemId: second, choice: "B" },
    ]);

    await setAutoAdvance(false);
    expect(read(`SELECT auto_advance AS on_ FROM annotators WHERE username = 'ben'`)).toEqual([{ on_: 0 }]);
    await page.goto(`${server.url}/annotate/${autoStudy}/next`);
    await waitForItem(page, third);
    await page.keyboard.press("1");
    await page.locator('[data-testid="draft-status"][data-phase="saved"]').waitFor();
    expect(await onScreen(page)).toBe(third);
    expect(choices()).toHaveLength(2);
    await page.close();
  });
});

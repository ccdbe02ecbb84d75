/**
 * The task page's flow in Chromium through the real server: keys typed at machine speed land on
 * the item on screen, and of the keys typed while the next one loads only moves act on it (issue
 * 28: answers never land on an item not yet seen); skip, flag and
 * undo-last with their shortcuts; `?from=mine` returns to My labels; the first snippet offers no
 * carry-forward; party names are shown whole. Results are read back from the database.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAbStudy, createConsensusStudy } from "../../app/server/annotation/studies.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { validConsensusLabel } from "../../harness/annotation.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { holdNextSubmit } from "../../harness/hold-submit.ts";
import { DEMO, signIn } from "../../harness/login.ts";
import { readRows } from "../helpers/read-rows.ts";

type Stored = {
  itemId: number;
  revision: number;
  payload: { topics?: Record<string, { score: number; positions: Record<string, string> }>; choice?: string };
};

describe.runIf(runBrowserTests)("task page flow in Chromium", { timeout: 180_000 }, () => {
  let server: AppServer;
  let browser: Browser;
  let rapidStudy = 0;
  let actionStudy = 0;
  let flagStudy = 0;
  let abStudy = 0;
  const shapes = new Map<number, { topics: string[]; parties: string[] }>();

  const read = <T>(sql: string, ...args: unknown[]) => readRows<T>(server.dbPath, sql, ...args);
  const itemsOf = (studyId: number) =>
    read<{ id: number }>(`SELECT id FROM study_items WHERE study_id = ? ORDER BY position`, studyId).map((r) => r.id);
  const latestLabels = (studyId: number, username: string): Stored[] =>
    read<{ itemId: number; revision: number; payload: string }>(
      `SELECT l.study_item_id AS itemId, r.revision, r.payload FROM labels l JOIN study_items i ON i.id = l.study_item_id JOIN annotators a ON a.id = l.annotator_id
       JOIN label_revisions r ON r.label_id = l.id AND r.revision = (SELECT max(revision) FROM label_revisions WHERE label_id = l.id)
       WHERE i.study_id = ? AND a.username = ? ORDER BY r.id`,
      studyId,
      username,
    ).map((r) => ({ ...r, payload: JSON.parse(r.payload) }));
  const itemOnScreen = (page: Page) =>
    page.locator('[data-testid="task-page"]:not([data-busy])').getAttribute("data-item").then(Number);
  const waitForItem = async (page: Page, itemId: number) => {
    await page.locator(`[data-testid="task-page"][data-item="${itemId}"]:not([data-busy])`).waitFor();
    await page.waitForLoadState("networkidle");
  };
  /** After a full page load: the item is on screen and its keyboard handler is live ("?" opens the cheat sheet). */
  const waitForKeys = async (page: Page, itemId: number) => {
    await waitForItem(page, itemId);
    await page.keyboard.press("?");
    await page.getByRole("dialog").waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
  };

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    const db = await openDatabase(server.dbPath);
    rapidStudy = await createConsensusStudy(db, {
      name: "Rapid typing",
      pool: "expert",
      trajectories: 4,
      config: { seed: 11 },
    });
    // Seed 17 draws a trajectory of four snippets from the demo pool, one label each (the tests below walk three). The
    // flag and undo test has a study of its own, so it runs alone as well as after the skip test.
    const oneTrajectory = (name: string) =>
      createConsensusStudy(db, { name, pool: "expert", trajectories: 1, labelsPerItem: 1, config: { seed: 17 } });
    actionStudy = await oneTrajectory("Skip");
    flagStudy = await oneTrajectory("Flag and undo");
    abStudy = await createAbStudy(db, { name: "A/B actions", pool: "expert" });
    for (const id of [...itemsOf(rapidStudy), ...itemsOf(actionStudy), ...itemsOf(flagStudy)]) {
      const label = await validConsensusLabel(db, id);
      shapes.set(id, {
        topics: Object.keys(label.topics),
        parties: Object.keys(Object.values(label.topics)[0].positions),
      });
    }
    db.$client.close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Every key that labels an item: per topic one option letter per party (the cursor advances), the score, "j". */
  const keysFor = (itemId: number, option: string, score: number) =>
    shapes.get(itemId)!.topics.flatMap(() => [...shapes.get(itemId)!.parties.map(() => option), String(score), "j"]);

  it("keys typed at machine speed land on the item on screen; answer keys typed while the next item loads never answer it, moving keys still act on it", async () => {
    const items = itemsOf(rapidStudy);
    expect(items.length).toBeGreaterThan(4);
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.ada);
    await page.goto(`${server.url}/annotate/${rapidStudy}/next`);
    await waitForKeys(page, items[0]);
    const plan = items
      .slice(0, 4)
      .map((itemId, i) => ({ itemId, option: i % 2 === 0 ? "a" : "b", score: (i % 4) + 1 }));
    for (const [i, step] of plan.entries()) {
      for (const key of keysFor(step.itemId, step.option, step.score)) await page.keyboard.press(key);
      // The submit is held in the browser until the keys below are typed: they are typed while the next item loads
      // however fast it comes.
      const submit = await holdNextSubmit(page);
      await page.keyboard.press("Control+Enter");
      await submit.sent;
      // While the next item loads: a move (kept for it), a score and a submit (never applied to it).
      await page.keyboard.press("j");
      await page.keyboard.press("5");
      await page.keyboard.press("Control+Enter");
      await submit.release();
      const next = items[i + 1];
      await waitForItem(page, next);
      await page
        .getByTestId("keys-not-applied")
        .getByText("The 2 keys typed before this item appeared were not applied")
        .waitFor();
      const topics = shapes.get(next)!.topics;
      expect(await page.locator(".topic-card.focused").getAttribute("data-topic")).toBe(
        topics[Math.min(1, topics.length - 1)],
      );
      expect(latestLabels(rapidStudy, "ada").map((s) => s.itemId)).toEqual(plan.slice(0, i + 1).map((p) => p.itemId));
      await page.keyboard.press("k"); // back to the first topic, typed with the item on screen
    }
    const stored = latestLabels(rapidStudy, "ada");
    expect(stored.map((s) => s.itemId)).toEqual(plan.map((p) => p.itemId));
    for (const [i, label] of stored.entries()) {
      expect(label.revision).toBe(1);
      for (const topic of Object.values(label.payload.topics!)) {
        expect(topic.score).toBe(plan[i].score);
        expect(Object.values(topic.positions)).toEqual(
          shapes.get(label.itemId)!.parties.map(() => plan[i].option.toUpperCase()),
        );
      }
    }
    await page.close();
  });

  it("skip returns the item to the pool for another annotator, never for the skipper; the shortcut help lists skip and flag", async () => {
    const [first, second] = itemsOf(actionStudy);
    const ben = await browser.newPage();
    await signIn(ben, server.url, DEMO.ben);
    await ben.goto(`${server.url}/annotate/${actionStudy}/next`);
    await waitForItem(ben, first);
    await ben.keyboard.press("?");
    const help = ben.getByRole("dialog");
    for (const text of ["Skip this item", "Flag this item"])
      await help.getByText(text, { exact: false }).first().waitFor();
    // Undo is offered once there is a submitted item to reopen.
    expect(await help.getByText("Undo last").count()).toBe(0);
    await ben.keyboard.press("Escape");
    await help.waitFor({ state: "detached" });

    await ben.keyboard.press("s");
    await ben.getByLabel(/Why are you skipping it/).fill("I cannot read this dialect");
    await ben.keyboard.press("Enter");
    await waitForItem(ben, second);
    expect(
      read(
        `SELECT a.status, a.skip_reason AS reason FROM assignments a JOIN annotators n ON n.id = a.annotator_id WHERE a.study_item_id = ? AND n.username = 'ben'`,
        first,
      ),
    ).toEqual([{ status: "skipped", reason: "I cannot read this dialect" }]);
    // The skipper's own page for that item can be read, not answered.
    await ben.goto(`${server.url}/annotate/${actionStudy}/items/${first}`);
    await ben.getByText("You skipped this item").waitFor();

    const ada = await browser.newPage();
    await signIn(ada, server.url, DEMO.ada);
    await ada.goto(`${server.url}/annotate/${actionStudy}/next`);
    await waitForItem(ada, first);
    await ada.close();
    // k = 1: with ada's lease on it the item is full; ben, back to work, gets his own next item.
    await ben.goto(`${server.url}/annotate/${actionStudy}/next`);
    expect(await itemOnScreen(ben)).toBe(second);
    await ben.close();
  });

  it("flag stores the comment and leaves the item open; undo (listed in the shortcut help) reopens the previous item and stores a revision; ?from=mine returns to My labels", async () => {
    const [flagged, next] = itemsOf(flagStudy);
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.ben);
    await page.goto(`${server.url}/annotate/${flagStudy}/next`);
    await waitForKeys(page, flagged);

    await page.keyboard.press("!");
    await page.getByLabel(/What is wrong with this item/).fill("Turn 4 repeats turn 3 word for word.");
    await page.keyboard.press("Control+Enter");
    await page.getByTestId("flag-status").getByText("Flag sent").waitFor();
    expect(
      read(
        `SELECT f.study_item_id AS itemId, f.comment FROM item_flags f JOIN annotators n ON n.id = f.annotator_id WHERE n.username = 'ben'`,
      ),
    ).toEqual([{ itemId: flagged, comment: "Turn 4 repeats turn 3 word for word." }]);
    expect(await itemOnScreen(page)).toBe(flagged);

    for (const key of keysFor(flagged, "a", 2)) await page.keyboard.press(key);
    await page.keyboard.press("Control+Enter");
    await waitForItem(page, next);
    await page.keyboard.press("3"); // work begun on the next item: a draft not yet saved (autosave waits for a pause)
    await page.keyboard.press("?");
    await page.getByRole("dialog").getByText("Undo last").waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });
    await page.keyboard.press("Control+z");
    await waitForItem(page, flagged);
    await page.getByText("Submitted (revision 1)").waitFor();
    // That draft is saved on its own item before the undo leaves it, never on the reopened one.
    const drafts = () =>
      read<{ itemId: number }>(
        `SELECT d.study_item_id AS itemId FROM label_drafts d JOIN annotators n ON n.id = d.annotator_id WHERE n.username = 'ben'`,
      );
    await expect.poll(drafts).toEqual([{ itemId: next }]);
    await page.keyboard.press("4"); // the first topic's score (every topic is complete, so the first has focus)
    await page.keyboard.press("Control+Enter");
    await waitForItem(page, next);
    const revised = latestLabels(flagStudy, "ben").find((l) => l.itemId === flagged)!;
    expect(revised.revision).toBe(2);
    expect(Object.values(revised.payload.topics!)[0].score).toBe(4);
    expect(
      read(
        `SELECT count(*) AS n FROM label_revisions r JOIN labels l ON l.id = r.label_id WHERE l.study_item_id = ?`,
        flagged,
      ),
    ).toEqual([{ n: 2 }]);

    await page.goto(`${server.url}/annotate/${flagStudy}/items/${flagged}?from=mine`);
    await waitForKeys(page, flagged);
    await page.keyboard.press("5");
    await page.keyboard.press("Control+Enter");
    await page.waitForURL(`${server.url}/annotate/${flagStudy}/mine`);
    await page.close();
  });

  it("the first snippet offers no carry-forward, the second does; party names are shown whole", async () => {
    const [first, second] = itemsOf(rapidStudy);
    const page = await browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, server.url, DEMO.ada);
    await page.goto(`${server.url}/annotate/${rapidStudy}/items/${first}`);
    await waitForItem(page, first);
    expect(await page.getByRole("button", { name: /carry forward/ }).count()).toBe(0);
    const cut = await page
      .locator(".position-row .party-chip")
      .evaluateAll((chips) => chips.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent));
    expect(cut).toEqual([]);
    await page.goto(`${server.url}/annotate/${rapidStudy}/items/${second}`);
    await waitForItem(page, second);
    expect(await page.getByRole("button", { name: /carry forward/ }).count()).toBe(shapes.get(second)!.topics.length);
    await page.close();
  });

  it("the A/B task offers skip, flag and undo too; a flag there is stored", async () => {
    const [pair] = itemsOf(abStudy);
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.ada);
    await page.goto(`${server.url}/annotate/${abStudy}/next`);
    await waitForKeys(page, pair);
    await page.getByRole("button", { name: /^Skip/ }).waitFor();
    await page.keyboard.press("!");
    await page.getByLabel(/What is wrong with this item/).fill("Both conversations are the same.");
    await page.getByRole("button", { name: /Send flag/ }).click();
    await page.getByTestId("flag-status").getByText("Flag sent").waitFor();
    expect(read(`SELECT comment FROM item_flags WHERE study_item_id = ?`, pair)).toEqual([
      { comment: "Both conversations are the same." },
    ]);
    await page.close();
  });
});

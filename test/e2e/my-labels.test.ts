/**
 * My labels and a label's history in Chromium, through the real server: after an expert has
 * labelled two snippets and revised the first, the list shows scenario, place and answer newest
 * first, the "revised" and scenario filters work from shareable links, and the history reads in
 * words (topic names, option text, what changed) with a way back to the list.
 */
import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema.ts";
import { shorten } from "../../app/domain/label-review/summary.ts";
import { nextTask } from "../../app/server/annotation/assignment.server.ts";
import { createConsensusStudy } from "../../app/server/annotation/studies.server.ts";
import { submitLabel } from "../../app/server/annotation/submit.server.ts";
import { playedScenarioOfRun, snippetContext } from "../../app/server/annotation/task-view.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { DEMO, signIn } from "../../harness/login.ts";

interface Fixture {
  studyId: number;
  /** Item ids in labelling order: the first and second snippet of one trajectory. */
  items: [number, number];
  title: string;
  /** Option A's text in full and as a list shortens it. */
  topics: { id: string; name: string; optionA: string; optionAShort: string }[];
}

/**
 * Ada labels the first two snippets of a one-trajectory study (score 3, every party on option A),
 * written through the services on the server's own database file.
 */
async function labelTwoSnippets(dbPath: string): Promise<Fixture> {
  const db = await openDatabase(dbPath);
  try {
    const ada = (
      await db.select().from(schema.annotators).where(eq(schema.annotators.username, DEMO.ada.username)).limit(1)
    )[0]!.id;
    const studyId = await createConsensusStudy(db, {
      name: "My labels in Chromium",
      pool: "expert",
      trajectories: 1,
      config: { seed: 3 },
    });
    const items: number[] = [];
    let body: Awaited<ReturnType<typeof playedScenarioOfRun>> | null = null;
    for (const n of [1, 2]) {
      const itemId = (await nextTask(db, studyId, ada))!.itemId;
      const item = (await db.select().from(schema.studyItems).where(eq(schema.studyItems.id, itemId)).limit(1))[0]!;
      body = await playedScenarioOfRun(db, (await snippetContext(db, item.snippetId!)).runId);
      const topics = Object.fromEntries(
        body.body.topics.map((t) => [
          t.id,
          {
            score: 3,
            carriedForward: false,
            positions: Object.fromEntries(body!.body.parties.map((p) => [p.id, "A"])),
          },
        ]),
      );
      await submitLabel(db, {
        studyId,
        itemId,
        annotatorId: ada,
        payload: { kind: "consensus-snippet", topics },
        clientToken: `my-labels-e2e-${n}`,
        secondsOnTask: 20,
      });
      items.push(itemId);
    }
    const topics = body!.body.topics.map((t) => ({
      id: t.id,
      name: t.name,
      optionA: t.options[0].description,
      optionAShort: shorten(t.options[0].description),
    }));
    return { studyId, items: items as [number, number], title: body!.title, topics };
  } finally {
    db.$client.close();
  }
}

const rows = (page: Page) => page.getByTestId("my-labels").locator("tbody tr");

describe.runIf(runBrowserTests)("My labels and label history in Chromium", { timeout: 120_000 }, () => {
  let server: AppServer;
  let browser: Browser;
  let page: Page;
  let fx: Fixture;
  let mine = "";

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    fx = await labelTwoSnippets(server.dbPath);
    mine = `${server.url}/annotate/${fx.studyId}/mine`;
    page = await (await browser.newContext()).newPage();
    await signIn(page, server.url, DEMO.ada);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("lists scenario, place and the answer in words, newest first", async () => {
    await page.goto(mine);
    await expect(rows(page).count()).resolves.toBe(2);
    const [newest, older] = await rows(page).allInnerTexts();
    expect(newest).toContain(fx.title);
    expect(newest).toMatch(/Trajectory 1 · snippet 2 of \d+/);
    expect(older).toMatch(/Trajectory 1 · snippet 1 of \d+/);
    for (const topic of fx.topics) {
      expect(newest).toContain(topic.name);
      expect(newest).toContain(topic.optionAShort);
    }
    expect(newest).toMatch(/score 3/);
    expect(newest).not.toMatch(/[{}]|#1\b/);
  });

  it("revising from My labels moves the label to the top, marked revised", async () => {
    await page.goto(mine);
    await rows(page).nth(1).getByRole("link", { name: "Open to revise" }).click();
    await page.waitForURL((u) => u.pathname.endsWith(`/items/${fx.items[0]}`) && u.searchParams.get("from") === "mine");
    await page.locator(`[data-testid="task-page"][data-item="${fx.items[0]}"]`).waitFor();
    await page.waitForLoadState("networkidle");
    const five = page.locator(`fieldset[data-topic="${fx.topics[0].id}"]`).getByRole("radio", { name: /^5:/ });
    await five.click();
    await page
      .locator(`fieldset[data-topic="${fx.topics[0].id}"] [role="radio"][aria-checked="true"][aria-label^="5:"]`)
      .waitFor();
    const itemUrl = page.url();
    await page.keyboard.press("Control+Enter");
    await page.waitForURL((u) => u.toString() !== itemUrl);

    await page.goto(mine);
    const [newest, older] = await rows(page).allInnerTexts();
    expect(newest).toMatch(/snippet 1 of/);
    expect(newest).toMatch(/Revised \(2 versions\)/);
    expect(newest).toMatch(/score 5/);
    expect(older).toMatch(/snippet 2 of/);
    expect(older).toMatch(/Not revised/);
  });

  it("the revised and scenario filters work, and their links can be shared", async () => {
    await page.goto(mine);
    await page.getByLabel("Revised").selectOption("yes");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL((u) => u.searchParams.get("revised") === "yes");
    // A client-side navigation may show the new URL a moment before the new rows.
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rows(page).first().innerText()).toMatch(/snippet 1 of/);

    // The same link opened afresh shows the same list.
    const shared = await (await browser.newContext({ storageState: await page.context().storageState() })).newPage();
    await shared.goto(page.url());
    await expect(rows(shared).count()).resolves.toBe(1);
    await shared.goto(`${mine}?revised=no`);
    expect(await rows(shared).allInnerTexts()).toEqual([expect.stringMatching(/snippet 2 of/)]);
    await shared.goto(`${mine}?scenario=${encodeURIComponent("No such scenario")}`);
    await shared.getByText("None of your labels match these filters").waitFor();
    await shared.close();

    await page.getByRole("link", { name: "Show all" }).click();
    await page.waitForURL((u) => u.search === "");
    await page.getByLabel("Scenario").selectOption(fx.title);
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL((u) => u.searchParams.get("scenario") === fx.title);
    await expect.poll(() => rows(page).count()).toBe(2);
  });

  it("a label's history reads in words, newest first, shows what changed, and leads back to My labels", async () => {
    await page.goto(mine);
    await rows(page).first().getByRole("link", { name: "History" }).click();
    await page.waitForURL(/\/labels\/\d+$/);
    await page.getByTestId("revisions").waitFor();
    const revisions = page.getByTestId("revisions").locator(":scope > li");
    await expect(revisions.evaluateAll((els) => els.map((e) => e.getAttribute("data-revision")))).resolves.toEqual([
      "2",
      "1",
    ]);
    const text = await page.locator("main").innerText();
    expect(text).toContain(fx.title);
    for (const topic of fx.topics) {
      expect(text).toContain(topic.name);
      expect(text).toContain(topic.optionA);
    }
    expect(text).toContain("Changed from version 1");
    expect(text).toContain(`${fx.topics[0].name}: score 3 → 5`);
    expect(text).toMatch(/You, on the task page · \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    // No raw JSON and no internal ids.
    expect(text).not.toMatch(/[{}]|"kind"|consensus-snippet/);
    for (const topic of fx.topics) expect(text).not.toContain(`topics.${topic.id}`);
    await expect(page.locator(".answer-summary .changed").count()).resolves.toBeGreaterThan(0);

    await page.getByRole("link", { name: "Back to My labels" }).click();
    await page.waitForURL((u) => u.pathname === `/annotate/${fx.studyId}/mine`);
    await expect.poll(() => rows(page).count()).toBe(2);
  });
});

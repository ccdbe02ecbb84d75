/**
 * Issue 28, no blind labels, in Chromium through the real server: on the A/B task, `2` then Enter
 * typed while the next item loads stores nothing for it (the page says the keys were not applied);
 * over HTTP, a submit for a leased item whose page was never served is refused with 409; and on
 * the dashboard, labels faster than the study's minimum seconds on task are listed beside gold
 * accuracy and the exclude switch takes them out of alpha. Results are read back from the database.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextTask } from "../../app/server/annotation/assignment.server.ts";
import { createAbStudy } from "../../app/server/annotation/studies.server.ts";
import { submitLabel } from "../../app/server/annotation/submit.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { addAnnotator } from "../../harness/annotation.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { holdNextSubmit } from "../../harness/hold-submit.ts";
import { DEMO, loginCookie, signIn } from "../../harness/login.ts";
import { readRows } from "../helpers/read-rows.ts";

describe.runIf(runBrowserTests)("no blind labels (issue 28) in Chromium", { timeout: 180_000 }, () => {
  let server: AppServer;
  let browser: Browser;
  let abStudy = 0;
  let httpStudy = 0;
  let fastStudy = 0;
  let quickItems = 0;

  const read = <T>(sql: string, ...args: unknown[]) => readRows<T>(server.dbPath, sql, ...args);
  const itemsOf = (studyId: number) =>
    read<{ id: number }>(`SELECT id FROM study_items WHERE study_id = ? ORDER BY position`, studyId).map((r) => r.id);
  const labelsOf = (studyId: number, username: string) =>
    read<{ itemId: number; choice: string; seconds: number | null; shownAt: string | null; createdAt: string }>(
      `SELECT l.study_item_id AS itemId, json_extract(r.payload, '$.choice') AS choice, r.seconds_on_task AS seconds, a.shown_at AS shownAt, r.created_at AS createdAt
       FROM labels l JOIN study_items i ON i.id = l.study_item_id JOIN annotators n ON n.id = l.annotator_id JOIN label_revisions r ON r.label_id = l.id
       JOIN assignments a ON a.study_item_id = l.study_item_id AND a.annotator_id = l.annotator_id
       WHERE i.study_id = ? AND n.username = ? ORDER BY r.id`,
      studyId,
      username,
    );
  const waitForItem = async (page: Page, itemId: number) => {
    await page.locator(`[data-testid="task-page"][data-item="${itemId}"]:not([data-busy])`).waitFor();
    await page.waitForLoadState("networkidle");
  };

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    const db = await openDatabase(server.dbPath);
    abStudy = await createAbStudy(db, { name: "Blind A/B", pool: "expert", config: { seed: 21 } });
    httpStudy = await createAbStudy(db, { name: "Unserved A/B", pool: "expert", config: { seed: 22 } });
    // Two careful experts who agree on every item and a quick one who always picks the other side in 0.4 s.
    fastStudy = await createAbStudy(db, {
      name: "Quick labels",
      pool: "expert",
      labelsPerItem: 3,
      config: { seed: 23, bootstrapDraws: 200 },
    });
    const people = await Promise.all(
      ["careful-one", "careful-two", "quick-one"].map(async (name) => ({
        name,
        id: await addAnnotator(db, name, "expert"),
      })),
    );
    const agreed = new Map<number, "A" | "B">();
    let token = 0;
    for (const { name, id } of people) {
      for (let lease = await nextTask(db, fastStudy, id); lease; lease = await nextTask(db, fastStudy, id)) {
        if (!agreed.has(lease.itemId)) agreed.set(lease.itemId, agreed.size % 2 === 0 ? "A" : "B");
        const side = agreed.get(lease.itemId)!;
        const quick = name === "quick-one";
        const payload = { kind: "ab-reactiveness", choice: quick ? (side === "A" ? "B" : "A") : side };
        await submitLabel(db, {
          studyId: fastStudy,
          itemId: lease.itemId,
          annotatorId: id,
          payload,
          clientToken: `quick-labels-${String(++token).padStart(4, "0")}`,
          secondsOnTask: quick ? 0.4 : 9,
        });
        if (quick) quickItems++;
      }
    }
    db.$client.close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("`2` then Enter typed while the next A/B item loads stores nothing for it; typed once it is on screen, they do", async () => {
    const [first, second, third] = itemsOf(abStudy);
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.ada);
    await page.goto(`${server.url}/annotate/${abStudy}/next`);
    await waitForItem(page, first);
    // The item's key handler is live once "?" opens the shortcut list.
    await page.keyboard.press("?");
    await page.getByRole("dialog").waitFor();
    await page.keyboard.press("Escape");
    await page.getByRole("dialog").waitFor({ state: "detached" });

    await page.keyboard.press("1");
    // The submit is held in the browser until "2" and Enter are typed: the next item is still loading, as in the
    // report, however fast it comes.
    const submit = await holdNextSubmit(page);
    await page.keyboard.press("Enter");
    await submit.sent;
    await page.keyboard.press("2");
    await page.keyboard.press("Enter");
    await submit.release();
    await waitForItem(page, second);
    await page
      .getByTestId("keys-not-applied")
      .getByText("The 2 keys typed before this item appeared were not applied")
      .waitFor();
    expect(await page.getByRole("radio", { name: /B is more reactive/ }).getAttribute("aria-checked")).toBe("false");
    expect(labelsOf(abStudy, "ada").map((l) => [l.itemId, l.choice])).toEqual([[first, "A"]]);
    // Nothing arrives later either: the page is idle and still shows the unanswered item.
    await page.waitForLoadState("networkidle");
    expect(labelsOf(abStudy, "ada")).toHaveLength(1);

    await page.keyboard.press("2");
    await page.keyboard.press("Enter");
    await waitForItem(page, third);
    const stored = labelsOf(abStudy, "ada");
    expect(stored.map((l) => [l.itemId, l.choice])).toEqual([
      [first, "A"],
      [second, "B"],
    ]);
    // Shown before it was answered, and answered after real time on the page.
    for (const label of stored) {
      expect(label.shownAt).not.toBeNull();
      expect(Date.parse(label.shownAt!)).toBeLessThanOrEqual(Date.parse(label.createdAt));
    }
    expect(stored[1].seconds).toBeGreaterThan(0);
    await page.close();
  });

  it("over HTTP, a submit for a leased item whose page was never served is refused (409) and stores nothing; after the page, it is taken", async () => {
    const cookie = await loginCookie(server.url, DEMO.ben);
    // The lease is taken by a POST (issue 29); the item page is not served yet.
    const next = await fetch(`${server.url}/annotate/${httpStudy}/next`, {
      method: "POST",
      headers: { cookie },
      redirect: "manual",
    });
    const itemPath = next.headers.get("location")!;
    expect(itemPath).toMatch(new RegExp(`^/annotate/${httpStudy}/items/\\d+$`));
    const submit = (clientToken: string) =>
      fetch(server.url + itemPath, {
        method: "POST",
        headers: { cookie },
        body: new URLSearchParams({
          intent: "submit",
          payload: JSON.stringify({ kind: "ab-reactiveness", choice: "B" }),
          clientToken,
          secondsOnTask: "0",
          then: "stay",
        }),
        redirect: "manual",
      });
    const blind = await submit("unserved-token-1");
    expect(blind.status).toBe(409);
    expect(await blind.text()).toMatch(/had not been shown to you yet when this answer arrived, so it was not stored/);
    expect(labelsOf(httpStudy, "ben")).toEqual([]);

    expect((await fetch(server.url + itemPath, { headers: { cookie } })).status).toBe(200);
    expect((await submit("unserved-token-2")).status).toBe(200);
    expect(labelsOf(httpStudy, "ben").map((l) => l.choice)).toEqual(["B"]);
  });

  it("the dashboard lists labels under the minimum seconds on task beside gold accuracy; the exclude switch takes them out of alpha", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.admin);
    await page.goto(`${server.url}/admin/studies/${fastStudy}`);
    const panel = page.getByTestId("fast-labels");
    await panel.getByText("Labels faster than 2 s on task").waitFor();
    expect(await panel.locator('[data-testid="fast-labels-table"] tbody tr').count()).toBe(quickItems);
    expect(await panel.locator('[data-testid="fast-labels-table"] tbody tr td:first-child').allTextContents()).toEqual(
      Array(quickItems).fill("quick-one"),
    );
    const annotatorRow = (name: string) => page.getByTestId("annotator-table").locator("tbody tr", { hasText: name });
    expect(await annotatorRow("quick-one").getByTestId("fast-count").textContent()).toBe(String(quickItems));
    expect(await annotatorRow("careful-one").getByTestId("fast-count").textContent()).toBe("0");
    // The page writes a true minus sign.
    const alpha = async () =>
      (await page.getByTestId("agreement-panel").locator("tbody tr").first().locator("strong").textContent())!.replace(
        "−",
        "-",
      );
    const withQuick = Number(await alpha());
    expect(withQuick).toBeLessThan(0.5);

    await page.getByTestId("fast-labels-toggle").click();
    await page.waitForURL(/[?&]fast=exclude/);
    await page.getByTestId("fast-left-out").waitFor();
    // Two raters who agree on every item.
    expect(await alpha()).toBe("1.000");
    // The list stays, so the switch can be turned back.
    expect(await panel.locator('[data-testid="fast-labels-table"] tbody tr').count()).toBe(quickItems);

    await page.getByTestId("fast-labels-toggle").click();
    await page.getByTestId("fast-left-out").waitFor({ state: "detached" });
    expect(Number(await alpha())).toBe(withQuick);

    await page.getByTestId("min-seconds-form").getByLabel("Minimum seconds on task").fill("0.25");
    await page.getByTestId("min-seconds-form").getByRole("button", { name: "Set" }).click();
    await panel.getByText("Labels faster than 0.25 s on task").waitFor();
    await page.getByTestId("fast-labels-none").waitFor();
    await page.close();
  });
});

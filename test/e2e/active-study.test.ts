/**
 * Active labelling (issue 33) in Chromium through the real server: an admin creates an active
 * study on the New-study form, two experts label with the keyboard, a run's items appear only when
 * it is drawn, the task page stays blind (no judge, mediator or run), no item passes k, and the
 * dashboard shows the draw log and the stopping rule with a target the admin sets.
 */
import { MIN_LABELS_FOR_INTERVAL } from "../../app/domain/estimation/mean-estimators.ts";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextTask } from "../../app/server/annotation/assignment.server.ts";
import { submitLabel } from "../../app/server/annotation/submit.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { validConsensusLabel } from "../../harness/annotation.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { DEMO, signIn } from "../../harness/login.ts";
import { readRows } from "../helpers/read-rows.ts";

describe.runIf(runBrowserTests)("an active study in Chromium", { timeout: 240_000 }, () => {
  let server: AppServer;
  let browser: Browser;
  let studyId = 0;
  // Two runs per mediator stratum (set once the server's demo is known), the fewest that give each an interval.
  let BUDGET = 0;

  const read = <T>(sql: string, ...args: unknown[]) => readRows<T>(server.dbPath, sql, ...args);
  const drawnRuns = () =>
    read<{ run_id: string }>(
      "SELECT run_id FROM study_draws WHERE study_id = ? AND position IS NOT NULL ORDER BY position",
      studyId,
    ).map((r) => r.run_id);
  const itemsOf = () =>
    read<{ id: number; run_id: string; labels: number; slots: number }>(
      `SELECT i.id, i.run_id, (SELECT count(*) FROM labels l WHERE l.study_item_id = i.id) AS labels,
         (SELECT count(*) FROM assignments a WHERE a.study_item_id = i.id AND a.status IN ('leased', 'submitted')) AS slots
       FROM study_items i WHERE i.study_id = ? ORDER BY i.position`,
      studyId,
    );
  const idOf = (username: string) =>
    read<{ id: number }>("SELECT id FROM annotators WHERE username = ?", username)[0].id;

  /** Labels the item on screen with keys only (an option per party, a score, "j" per topic), then submits. */
  async function labelByKeyboard(page: Page, option: string, score: number): Promise<number> {
    const itemId = Number(new URL(page.url()).pathname.split("/").pop());
    await page.locator(`[data-testid="task-page"][data-item="${itemId}"]:not([data-busy])`).waitFor();
    await page.waitForLoadState("networkidle");
    const topics = await page
      .locator("fieldset[data-topic]")
      .evaluateAll((els) => els.map((e) => e.getAttribute("data-topic") as string));
    for (const topic of topics) {
      const parties = await page
        .locator(`fieldset[data-topic="${topic}"] [role="radiogroup"][aria-label*="position on"]`)
        .count();
      for (let p = 0; p < parties; p++) await page.keyboard.press(option);
      await page.keyboard.press(String(score));
      await page.keyboard.press("j");
    }
    const url = page.url();
    await page.keyboard.press("Control+Enter");
    await page.waitForURL((u) => u.toString() !== url);
    return itemId;
  }

  /** Blinding on the task page: nothing names the judge, the mediator, the condition or the run. */
  async function expectBlind(page: Page) {
    const text = (await page.locator("body").innerText()).toLowerCase();
    for (const word of ["demo-judge", "demo-mediator", "stratum", "inclusion"])
      expect(text, `task page shows "${word}"`).not.toContain(word);
    for (const runId of drawnRuns()) expect(await page.content()).not.toContain(runId);
  }

  /** Labels as the annotator through the allocation and submit services until `stop` says so or nothing is left. */
  async function labelThroughService(username: string, stop: (runId: string) => boolean): Promise<void> {
    const db = await openDatabase(server.dbPath);
    const annotatorId = idOf(username);
    try {
      for (;;) {
        const lease = await nextTask(db, studyId, annotatorId);
        if (!lease) return;
        const runId = read<{ run_id: string }>("SELECT run_id FROM study_items WHERE id = ?", lease.itemId)[0].run_id;
        if (await stop(runId)) return;
        await submitLabel(db, {
          studyId,
          itemId: lease.itemId,
          annotatorId,
          payload: await validConsensusLabel(db, lease.itemId, 1 + (lease.itemId % 5)),
          clientToken: `active-e2e-${username}-item-${lease.itemId}`,
          secondsOnTask: 6,
        });
      }
    } finally {
      db.$client.close();
    }
  }

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("an admin creates an active study: its population is stored, no item exists until a run is drawn", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.admin);
    await page.goto(server.url + "/admin/studies");
    await page.getByLabel("Name").fill("Active E2E");
    const strata = read<{ n: number }>(
      `SELECT count(DISTINCT coalesce(r.mediator_backbone, 'none')) AS n FROM runs r
       WHERE EXISTS (SELECT 1 FROM snippets s WHERE s.run_id = r.id)
         AND EXISTS (SELECT 1 FROM evaluations e WHERE e.run_id = r.id AND e.method = 'topic-localized' AND e.backbone = 'demo-judge')`,
    )[0].n;
    BUDGET = 2 * strata;
    await page.getByLabel(/Trajectories to sample/).fill(String(BUDGET));
    await page.getByLabel("How trajectories are chosen").selectOption("active");
    await page.getByLabel(/^Judge/).selectOption("demo-judge");
    await page.getByRole("button", { name: "Create study" }).click();
    await page.waitForURL(/\/admin\/studies\/\d+$/);
    studyId = Number(new URL(page.url()).pathname.split("/").pop());
    await page.getByRole("heading", { name: "Active E2E" }).waitFor();
    const rule = page.getByTestId("stopping-rule");
    expect(await rule.getByTestId("draw-summary").innerText()).toMatch(
      new RegExp(`Judge demo-judge\\. 0 of \\d+ runs drawn \\(budget ${BUDGET}\\)`),
    );
    expect(await rule.getByTestId("stopping-empty").innerText()).toMatch(/each mediator needs at least two drawn runs/);
    expect(itemsOf()).toHaveLength(0);
    await page.close();
  });

  it("two experts label with the keyboard; a run's items appear when it is drawn, blind, never beyond k", async () => {
    const ada = await (await browser.newContext()).newPage();
    await signIn(ada, server.url, DEMO.ada);
    await ada.goto(`${server.url}/annotate/${studyId}/next`);
    await ada.waitForURL(/\/items\/\d+$/);
    const [first] = drawnRuns();
    expect(drawnRuns()).toHaveLength(1);
    const firstItems = itemsOf();
    expect(firstItems.length).toBeGreaterThan(1);
    expect(firstItems.every((i) => i.run_id === first)).toBe(true);
    await expectBlind(ada);
    const adaFirst = await labelByKeyboard(ada, "a", 4);
    expect(adaFirst).toBe(firstItems[0].id);

    const ben = await (await browser.newContext()).newPage();
    await signIn(ben, server.url, DEMO.ben);
    await ben.goto(`${server.url}/annotate/${studyId}/next`);
    await ben.waitForURL(/\/items\/\d+$/);
    await expectBlind(ben);
    // The first run still has room for Ben (k = 2): nothing new is drawn for him.
    expect(await labelByKeyboard(ben, "b", 2)).toBe(adaFirst);
    expect(drawnRuns()).toHaveLength(1);

    // Ada finishes the first run; her next request draws the second one, which her page then shows.
    await labelThroughService("ada", (runId) => runId !== first);
    expect(drawnRuns()).toHaveLength(2);
    await ada.goto(`${server.url}/annotate/${studyId}/next`);
    await ada.waitForURL(/\/items\/\d+$/);
    const onScreen = Number(new URL(ada.url()).pathname.split("/").pop());
    expect(itemsOf().find((i) => i.id === onScreen)?.run_id).toBe(drawnRuns()[1]);
    await expectBlind(ada);
    await labelByKeyboard(ada, "a", 3);

    // Both label everything the budget allows.
    await labelThroughService("ben", () => false);
    await labelThroughService("ada", () => false);
    await labelThroughService("ben", () => false);
    expect(drawnRuns()).toHaveLength(BUDGET);
    const items = itemsOf();
    expect(new Set(items.map((i) => i.run_id))).toEqual(new Set(drawnRuns()));
    for (const item of items) {
      expect(item.labels).toBe(2);
      expect(item.slots).toBe(2);
    }
    await ada.goto(`${server.url}/annotate/${studyId}/next`);
    await ada.waitForURL((u) => !/\/items\/\d+$/.test(u.pathname));
  });

  it("the dashboard shows the draw log and the stopping rule, and saves the target the admin sets", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.admin);
    await page.goto(`${server.url}/admin/studies/${studyId}`);
    const rule = page.getByTestId("stopping-rule");
    await rule.waitFor();
    expect(await rule.getByTestId("draw-log").locator("tbody tr").count()).toBe(BUDGET);
    expect(await rule.getByTestId("draw-summary").innerText()).toMatch(
      new RegExp(`${BUDGET} of \\d+ runs drawn \\(budget ${BUDGET}\\)`),
    );
    expect(await rule.getByTestId("stopping-source").innerText()).toMatch(/Active estimate/);
    const table = rule.getByTestId("stopping-table");
    for (const mediator of ["demo-mediator", "none"]) {
      const row = table.locator(`tr[data-mediator="${mediator}"][data-quantity="outcome"]`);
      expect(await row.locator("td").nth(4).innerText()).toMatch(/^±\d\.\d{3}$/);
      expect(await row.getByTestId("further-labels").innerText()).toMatch(/^(\d+|0 \(reached\))$/);
    }
    await page.getByLabel(/Target half-width/).fill("0.9");
    await page.getByRole("button", { name: "Set target" }).click();
    await table.locator("th", { hasText: "±0.9" }).waitFor();
    expect(read<{ config: string }>("SELECT config FROM studies WHERE id = ?", studyId)[0].config).toMatch(
      /"targetHalfWidth":0.9/,
    );
    // At ±0.9 on a 0–1 scale every half-width is there already: what is left is the 30 labelled runs an interval
    // needs before it is read as final (labelsToReport).
    for (const row of await table.locator("tbody tr").all()) {
      const labelled = Number(await row.locator("td").nth(5).innerText());
      expect(await row.getByTestId("further-labels").innerText()).toBe(
        labelled >= MIN_LABELS_FOR_INTERVAL ? "0 (reached)" : String(MIN_LABELS_FOR_INTERVAL - labelled),
      );
    }
    await page.close();
  });
});

// The admin's and researcher's pages in Chromium: the New-study form keeps what was typed when the
// server refuses it (with and without script) and says what is wrong beside each field; the gold
// source is a list of consensus studies; the item-count preview; flags on the dashboard; confirm
// steps for Close study and Deactivate; the crowd link's copy button; sortable, filtered tables
// with a progress column; the favicon.
import Database from "better-sqlite3";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/server/db.server.ts";
import { insertItemFlag } from "../../app/server/models/item-flag.server.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { createCrowdAbStudy, DEMO, loginInBrowser, signIn } from "../../harness/login.ts";

// A long Markdown guideline, as a researcher would paste it.
const GUIDELINE = Array.from(
  { length: 60 },
  (_, i) => `## Rule ${i + 1}\n\nScore **agreement** on each topic; quote the turn (\`t${i}\`) you relied on.\n`,
).join("\n");

const numbers = (texts: string[]) => texts.map((t) => Number(t.trim()));

describe.runIf(runBrowserTests)("admin pages in the browser", () => {
  let server: AppServer;
  let browser: Browser;
  let page: Page;
  const query = <T>(sql: string, ...args: unknown[]) => {
    const db = new Database(server.dbPath, { readonly: true });
    try {
      return db.prepare(sql).all(...args) as T[];
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    const context = await browser.newContext();
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    page = await context.newPage();
    await signIn(page, server.url, DEMO.admin);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /**
   * Fills the New-study form with a name the server refuses (blank after trimming) and a gold study that does not
   * exist.
   */
  async function fillRefusedForm(p: Page, goldId: string | null) {
    await p.goto(server.url + "/admin/studies");
    await p.getByRole("radio", { name: "Crowd" }).check();
    await p.getByLabel("Name").fill("   ");
    await p.getByLabel("Labels per item").fill("4");
    await p.getByLabel(/Trajectories to sample/).fill("2");
    await p.getByLabel(/Sampling seed/).fill("7");
    await p.getByLabel(/Lease/).fill("45");
    await p.getByLabel(/Guidelines/).fill(GUIDELINE);
    if (goldId) {
      // A study offered when the page loaded but gone by the submit: the server is the authority.
      await p
        .locator("select[name=goldFromStudyId]")
        .evaluate((select, id) => select.append(new Option(`study ${id}`, id)), goldId);
      await p.locator("select[name=goldFromStudyId]").selectOption(goldId);
    }
  }

  async function expectValuesKept(p: Page) {
    expect(await p.getByLabel(/Guidelines/).inputValue()).toBe(GUIDELINE);
    expect(await p.getByLabel("Name").inputValue()).toBe("   ");
    expect(await p.getByRole("radio", { name: "Crowd" }).isChecked()).toBe(true);
    expect(await p.getByLabel("Labels per item").inputValue()).toBe("4");
    expect(await p.getByLabel(/Trajectories to sample/).inputValue()).toBe("2");
    expect(await p.getByLabel(/Sampling seed/).inputValue()).toBe("7");
    expect(await p.getByLabel(/Lease/).inputValue()).toBe("45");
  }

  it("keeps every value of a refused New-study form, with each error beside its field and a focused summary in the user's terms", async () => {
    await fillRefusedForm(page, "99");
    await page.getByRole("button", { name: "Create study" }).click();
    const summary = page.getByTestId("error-summary");
    await summary.waitFor();
    expect(await summary.evaluate((el) => el === document.activeElement)).toBe(true);
    const text = (await summary.textContent()) as string;
    expect(text).toMatch(/Name: give the study a name/);
    expect(text).toMatch(/Gold snippets from: Study 99 does not exist/);
    expect(text).not.toMatch(/goldFromStudyId/);
    // Beside the field: inside the field's own label.
    expect(
      await page
        .locator(".field-block", { has: page.locator("select[name=goldFromStudyId]") })
        .locator(".field-error")
        .textContent(),
    ).toBe("Study 99 does not exist");
    expect(
      await page
        .locator("label", { has: page.locator("input[name=name]") })
        .locator(".field-error")
        .textContent(),
    ).toBe("give the study a name");
    await expectValuesKept(page);
    expect(await page.locator("select[name=goldFromStudyId]").inputValue()).toBe("99");
    expect(query("SELECT id FROM studies WHERE name = '   '")).toEqual([]);
  });

  it("keeps the values without script too (the server renders them back)", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const p = await context.newPage();
    await loginInBrowser(p, server.url, DEMO.admin);
    await fillRefusedForm(p, null);
    await p.getByRole("button", { name: "Create study" }).click();
    await p.getByTestId("error-summary").waitFor();
    await expectValuesKept(p);
    await context.close();
  });

  it("refuses an A/B study as the gold source, saying where gold comes from", async () => {
    const [ab] = query<{ id: number }>("SELECT id FROM studies WHERE type = 'ab-reactiveness' ORDER BY id LIMIT 1");
    await fillRefusedForm(page, String(ab.id));
    await page.getByLabel("Name").fill("Gold from an A/B study");
    await page.getByRole("button", { name: "Create study" }).click();
    await expect(page.getByTestId("error-summary").textContent()).resolves.toContain(
      `Study ${ab.id} is an A/B reactiveness study; gold snippets come from a consensus study`,
    );
  });

  it("offers the consensus studies as gold sources, a pool-following placeholder and an item-count preview", async () => {
    await page.goto(server.url + "/admin/studies");
    const offered = await page
      .locator("select[name=goldFromStudyId] option")
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter(Boolean));
    const consensus = query<{ id: number }>("SELECT id FROM studies WHERE type = 'consensus-snippet' ORDER BY id").map(
      (r) => String(r.id),
    );
    expect(offered).toEqual(consensus);
    const placeholder = () => page.getByLabel("Labels per item").getAttribute("placeholder");
    await expect(placeholder()).resolves.toBe("2");
    await page.getByRole("radio", { name: "Crowd" }).check();
    await expect(placeholder()).resolves.toBe("3");
    await page.getByRole("radio", { name: "Expert" }).check();
    await expect(placeholder()).resolves.toBe("2");

    await page.getByLabel("Name").fill("Previewed study");
    await page.getByLabel(/Trajectories to sample/).fill("2");
    const before = query("SELECT id FROM studies").length;
    await page.getByRole("button", { name: "Preview item count" }).click();
    const preview = (await page.getByTestId("study-preview").textContent()) as string;
    const items = Number(/have (\d+) item/.exec(preview)?.[1]);
    expect(items).toBeGreaterThan(1);
    expect(query("SELECT id FROM studies").length).toBe(before);
    expect(await page.getByLabel("Name").inputValue()).toBe("Previewed study");
    await page.getByRole("button", { name: "Create study" }).click();
    await page.waitForURL(/\/admin\/studies\/\d+$/);
    const id = Number(new URL(page.url()).pathname.split("/").pop());
    expect(query("SELECT id FROM study_items WHERE study_id = ?", id)).toHaveLength(items);
  });

  it("lists open flags on the dashboard with a link to the item, marks one resolved and hides it unless asked", async () => {
    const studyId = Number(new URL(page.url()).pathname.split("/").pop());
    const db = await openDatabase(server.dbPath);
    const [item] = query<{ id: number }>(
      "SELECT id FROM study_items WHERE study_id = ? ORDER BY position LIMIT 1",
      studyId,
    );
    const [ada] = query<{ id: number }>("SELECT id FROM annotators WHERE username = 'ada'");
    await insertItemFlag(db, { studyItemId: item.id, annotatorId: ada.id, comment: "The snippet stops mid-sentence." });
    await insertItemFlag(db, { studyItemId: item.id, annotatorId: ada.id, comment: "Topic names are unclear here." });
    db.$client.close();

    await page.reload();
    const rows = page.getByTestId("flag-row");
    await expect(rows.count()).resolves.toBe(2);
    await expect(page.getByTestId("flags-panel").textContent()).resolves.toMatch(/2 open · 0 resolved/);
    const first = rows.filter({ hasText: "The snippet stops mid-sentence." });
    await expect(first.textContent()).resolves.toMatch(/item 1.*Ada|item 1.*ada/i);
    const runHref = (await first.getByRole("link").first().getAttribute("href")) as string;
    expect(runHref).toMatch(/^\/runs\/.+#turn-\d+$/);
    await first.getByRole("button", { name: "Mark resolved" }).click();
    await page.getByTestId("flags-panel").filter({ hasText: "1 open · 1 resolved" }).waitFor();
    await expect(rows.count()).resolves.toBe(1);
    await page.getByRole("link", { name: "show resolved" }).click();
    await page.getByRole("link", { name: "hide resolved" }).waitFor();
    await expect(rows.count()).resolves.toBe(2);
    await expect(rows.filter({ hasText: "The snippet stops mid-sentence." }).textContent()).resolves.toMatch(
      /resolved \d{4}-/,
    );
    const run = await page.goto(server.url + runHref);
    expect(run?.status()).toBe(200);
  });

  it("asks before closing a study, without script", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const p = await context.newPage();
    await loginInBrowser(p, server.url, DEMO.admin);
    const [study] = query<{ id: number }>("SELECT id FROM studies WHERE status = 'open' ORDER BY id DESC LIMIT 1");
    await p.goto(`${server.url}/admin/studies/${study.id}`);
    const confirm = p.getByRole("button", { name: "Yes, close the study" });
    expect(await confirm.isVisible()).toBe(false);
    await p.getByText("Close study…").click();
    await confirm.click();
    await p.getByTestId("study-status").filter({ hasText: "closed" }).waitFor();
    expect(query("SELECT status FROM studies WHERE id = ?", study.id)).toEqual([{ status: "closed" }]);
    await context.close();
  });

  it("asks before deactivating an account", async () => {
    await page.goto(server.url + "/admin/annotators");
    const row = page.getByRole("row").filter({ has: page.getByRole("cell", { name: "ben", exact: true }) });
    const confirm = row.getByRole("button", { name: "Yes, deactivate ben" });
    expect(await confirm.isVisible()).toBe(false);
    await row.getByText("Deactivate…").click();
    await confirm.click();
    await page.getByText("Account deactivated.").waitFor();
    await row.getByRole("button", { name: "Activate" }).waitFor();
    expect(query("SELECT active FROM annotators WHERE username = 'ben'")).toEqual([{ active: 0 }]);
  });

  it("copies a crowd link with one click; without script the link stays on the page to select", async () => {
    const studyId = await createCrowdAbStudy(page, server.url, "Crowd study with a link");
    await page.getByLabel("Worker id").fill("W123");
    await page.getByRole("button", { name: "Make link" }).click();
    const link = (await page.getByTestId("crowd-link").textContent()) as string;
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/crowd\/start\?/);
    await page.getByRole("button", { name: "Copy link" }).click();
    await page.getByText("Copied.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

    const context = await browser.newContext({ javaScriptEnabled: false });
    const p = await context.newPage();
    await loginInBrowser(p, server.url, DEMO.admin);
    await p.goto(`${server.url}/admin/studies/${studyId}`);
    await p.getByLabel("Worker id").fill("W123");
    await p.getByRole("button", { name: "Make link" }).click();
    await expect(p.getByTestId("crowd-link").textContent()).resolves.toBe(link);
    await expect(p.getByRole("button", { name: "Copy link" }).count()).resolves.toBe(0);
    await context.close();
  });

  it("sorts /runs by clicking a column header, either way, and filters it", async () => {
    await page.goto(server.url + "/runs");
    const turns = () => page.getByTestId("run-table").locator("tbody tr td:nth-child(5)").allTextContents();
    await page.getByRole("link", { name: "Turns", exact: true }).click();
    await page.locator("th[aria-sort=ascending]", { hasText: "Turns" }).waitFor();
    const up = numbers(await turns());
    expect(up).toEqual([...up].sort((a, b) => a - b));
    await page.getByRole("link", { name: "Turns", exact: true }).click();
    await page.locator("th[aria-sort=descending]", { hasText: "Turns" }).waitFor();
    expect(page.url()).toMatch(/sort=turns&dir=desc/);
    const down = numbers(await turns());
    // The first page of each order (the demo has more runs than a page): the largest now, down to the smallest.
    expect(down).toEqual([...down].sort((a, b) => b - a));
    expect(down[0]).toBeGreaterThanOrEqual(up[up.length - 1]);
    expect(await page.locator("th[aria-sort=descending]").textContent()).toMatch(/^Turns/);

    await page.getByLabel("Mediated").selectOption("no");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/mediated=no/);
    expect(page.url()).toMatch(/sort=turns/);
    // The URL may change a moment before the filtered rows arrive: wait for them.
    const mediators = () => page.getByTestId("run-table").locator("tbody tr td:nth-child(3)").allTextContents();
    await expect.poll(async () => [...new Set(await mediators())]).toEqual(["none"]);
  });

  it("sorts and filters /admin/studies, with a progress column of labels done and needed", async () => {
    await page.goto(server.url + "/admin/studies");
    const studies = query<{ id: number; items: number; k: number; done: number }>(
      `SELECT s.id, (SELECT count(*) FROM study_items i WHERE i.study_id = s.id) AS items, s.labels_per_item AS k,
              (SELECT count(*) FROM labels l JOIN study_items i ON i.id = l.study_item_id WHERE i.study_id = s.id AND l.status = 'counted') AS done
       FROM studies s ORDER BY s.id`,
    );
    const progress = await page.getByTestId("study-progress").allTextContents();
    expect(progress.map((p) => /(\d+) \/ (\d+)/.exec(p)!.slice(1).map(Number))).toEqual(
      studies.map((s) => [s.done, s.items * s.k]),
    );
    await page.getByRole("link", { name: "Items", exact: true }).click();
    await page.locator("th[aria-sort=ascending]", { hasText: "Items" }).waitFor();
    const items = numbers(await page.getByTestId("study-list").locator("tbody tr td:nth-child(4)").allTextContents());
    expect(items).toEqual(studies.map((s) => s.items).sort((a, b) => a - b));
    await page.getByLabel("Type", { exact: true }).selectOption("ab-reactiveness");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/type=ab-reactiveness/);
    const types = () => page.getByTestId("study-list").locator("tbody tr td:nth-child(2)").allTextContents();
    await expect.poll(async () => [...new Set(await types())]).toEqual(["A/B reactiveness"]);
  });

  it("serves a favicon every page links, and no page logged a console error", async () => {
    const icon = await fetch(server.url + "/favicon.svg");
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toMatch(/image\/svg\+xml/);
    // A fresh page that posts nothing: a refused form's 400 is logged by the browser, by design.
    const p = await (await browser.newContext()).newPage();
    const consoleErrors: string[] = [];
    p.on("console", (m) => (m.type() === "error" ? consoleErrors.push(`${p.url()}: ${m.text()}`) : undefined));
    await loginInBrowser(p, server.url, DEMO.admin);
    for (const path of ["/admin/studies", "/admin/annotators", "/runs", "/scenarios", "/"]) {
      await p.goto(server.url + path);
      expect(await p.locator('link[rel="icon"]').getAttribute("href")).toBe("/favicon.svg");
    }
    expect(consoleErrors).toEqual([]);
  });
});

// /runs in Chromium on 135 synthetic runs (more than two pages): the total, paging by the numbered
// and next links, a filter from the GET form (a shareable URL that pages within the filtered runs),
// readable titles with the run id beneath, and the empty state's way back.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../app/server/annotation/accounts.server.ts";
import { importBundleFiles } from "../../app/server/bundle-store.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { syntheticBundle } from "../../bench/synthetic-bundle.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { signIn } from "../../harness/login.ts";
import { tempDir } from "../../harness/temp-db.ts";

const ADMIN = { username: "runs-admin", password: "runs-admin-Kx7q!pass" };

describe.runIf(runBrowserTests)("/runs in the browser: total, paging and filters", () => {
  const tmp = tempDir("socrates-runs-e2e-");
  let server: AppServer;
  let browser: Browser;
  let page: Page;
  const rowIds = () => page.getByTestId("run-table").locator("tbody .run-id").allTextContents();

  beforeAll(async () => {
    const dbPath = `${tmp.dir}/runs.db`;
    const db = await openDatabase(dbPath);
    await importBundleFiles(db, [{ file: "synthetic.json", text: JSON.stringify(syntheticBundle(1)) }]);
    await createAccount(db, { ...ADMIN, displayName: "Runs admin", role: "admin" });
    db.$client.close();
    server = await startAppServer({ dbPath });
    browser = await launchChromium();
    page = await (await browser.newContext()).newPage();
    await signIn(page, server.url, ADMIN);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    tmp.cleanup();
  });

  it("shows the total and pages through every run once with the pager's links", async () => {
    await page.goto(server.url + "/runs");
    await expect(page.getByTestId("run-total").textContent()).resolves.toBe("Runs 1–50 of 135");
    expect(await page.title()).toBe("Runs, page 1 of 3 · SoCRATES Studio");
    const first = await rowIds();
    expect(first).toHaveLength(50);
    // The main cell is the readable title; the id sits beneath it.
    const title = await page.getByTestId("run-table").locator("tbody tr").first().locator("td a").textContent();
    expect(title).toMatch(/^Bench scenario 0 · \S.* · (no mediator|m\d)$/);

    const pager = page.getByRole("navigation", { name: "Run pages" });
    await pager.getByRole("link", { name: "Page 2" }).click();
    await page.waitForURL(/[?&]page=2/);
    await expect.poll(() => page.getByTestId("run-total").textContent()).toBe("Runs 51–100 of 135");
    const second = await rowIds();
    await pager.getByRole("link", { name: /Next/ }).click();
    await page.waitForURL(/[?&]page=3/);
    await expect.poll(() => page.getByTestId("run-total").textContent()).toBe("Runs 101–135 of 135");
    expect(await pager.locator('[aria-current="page"]').textContent()).toBe("Page 3");
    const third = await rowIds();
    expect(new Set([...first, ...second, ...third]).size).toBe(135);
  });

  it("filters with the GET form into a shareable URL, and clears the filters when nothing matches", async () => {
    await page.goto(server.url + "/runs?page=2");
    await page.getByLabel("Mediator", { exact: true }).selectOption("m3");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.waitForURL(/mediator=m3/);
    // A new filter starts at its first page: the form carries no ?page.
    expect(page.url()).not.toMatch(/page=/);
    await expect.poll(() => page.getByTestId("run-total").textContent()).toBe("15 runs");
    const mediators = await page.getByTestId("run-table").locator("tbody tr td:nth-child(3)").allTextContents();
    expect(mediators).toEqual(Array(15).fill("m3"));
    await expect(page.getByTestId("pager").count()).resolves.toBe(0);

    // The URL is the filter: opened afresh it shows the same runs, and words narrow further.
    await page.goto(`${server.url}/runs?mediator=m3&cond=emotion:CC`);
    expect(await rowIds()).toEqual(["bench-0:emotion:CC:m3"]);
    expect(await page.getByLabel("Condition", { exact: true }).inputValue()).toBe("emotion:CC");

    await page.getByLabel("Find").fill("no-such-run");
    await page.getByRole("button", { name: "Filter" }).click();
    await page.getByTestId("runs-empty").waitFor();
    expect(await page.getByTestId("runs-empty").textContent()).toMatch(/No runs match these filters/);
    await page.getByTestId("runs-empty").getByRole("link", { name: "clear filters" }).click();
    await expect.poll(() => page.getByTestId("run-total").textContent()).toBe("Runs 1–50 of 135");
  });
});

/**
 * Charts in Chromium against the real server's demo database (issue 32): a dashboard chart's
 * "Show data" reveals its data as a table, its CSV and SVG downloads carry the chart's data and
 * drawing (links to the dashboard's charts route, fetched here with the page's session), the
 * drawings and tables survive hydration and come with a client navigation, the new views
 * (alignment scatter, fidelity dots with intervals) are on their dashboards, and at 390 px the
 * page does not scroll sideways and the narrow drawing fits.
 */
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { DEMO, signIn } from "../../harness/login.ts";

/** A download link's file, fetched with the page's session (the dashboard's links are to its charts route). */
async function downloaded(page: Page, link: Locator): Promise<{ type: string; text: string }> {
  const res = await page.request.get(new URL((await link.getAttribute("href")) ?? "", page.url()).href);
  expect(res.status()).toBe(200);
  return { type: res.headers()["content-type"] ?? "", text: await res.text() };
}

describe.runIf(runBrowserTests)("charts with their data", { timeout: 120_000 }, () => {
  let server: AppServer;
  let browser: Browser;
  const pages: Record<number, Page> = {};

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
    for (const width of [390, 1280]) {
      const context = await browser.newContext({ viewport: { width, height: 844 } });
      pages[width] = await context.newPage();
      await signIn(pages[width], server.url, DEMO.admin);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows the trend's data as a table behind a toggle, and offers it as CSV and the drawing as SVG", async () => {
    const page = pages[1280];
    await page.goto(`${server.url}/admin/studies/1`);
    const chart = page.getByTestId("trend-chart");
    await chart.locator(".chart-wide svg").waitFor();
    const table = chart.locator("table.chart-data-table");
    expect(await table.isVisible()).toBe(false);
    await chart.getByText("Show data", { exact: true }).click();
    await table.waitFor({ state: "visible" });
    const headers = await table.locator("thead th").allTextContents();
    expect(headers).toEqual(["position", "series", "consensus", "n"]);
    const rows = await table.locator("tbody tr").count();
    expect(rows).toBeGreaterThan(0);
    expect(await table.locator("tbody tr").first().locator("td").first().textContent()).toMatch(/^\d+$/);

    const csvLink = chart.getByRole("link", { name: "Download CSV" });
    expect(await csvLink.getAttribute("download")).toMatch(/\.csv$/);
    const csvFile = await downloaded(page, csvLink);
    expect(csvFile.type).toBe("text/csv; charset=utf-8");
    const csv = csvFile.text.trim().split("\r\n");
    expect(csv[0]).toBe("position,series,consensus,n");
    expect(csv).toHaveLength(rows + 1);
    // The table rounds; the CSV has each value as computed.
    expect(csv.slice(1).every((line) => line.split(",").length >= 4)).toBe(true);

    const svgLink = chart.getByRole("link", { name: "Download SVG" });
    expect(await svgLink.getAttribute("download")).toMatch(/\.svg$/);
    const svg = (await downloaded(page, svgLink)).text;
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain("Expert mean");

    // The point titles are rounded as the tooltip format says (one decimal), never a raw float.
    const titles = await chart.locator(".chart-wide svg title").allTextContents();
    expect(titles.length).toBeGreaterThan(0);
    for (const t of titles) expect(t).not.toMatch(/\d\.\d{3,}/);

    // The alignment table's scatter beside it, with its own data.
    const scatter = page.getByTestId("alignment-chart");
    await scatter.locator(".chart-wide svg").waitFor();
    expect((await downloaded(page, scatter.getByRole("link", { name: "Download CSV" }))).text).toMatch(
      /^method,unit,expert,value\r\n/,
    );
  });

  it("keeps the server's drawings and data table through hydration, and a client navigation fetches them beside the page data", async () => {
    const page = pages[1280];
    const drawings = async () => {
      const chart = page.getByTestId("trend-chart");
      await chart.locator(".chart-wide svg").waitFor();
      return {
        wide: await chart.locator(".chart-wide svg").count(),
        narrow: await chart.locator(".chart-narrow svg").count(),
        rows: await chart.locator("table.chart-data-table tbody tr").count(),
        download: await chart.getByRole("link", { name: "Download SVG" }).getAttribute("href"),
      };
    };
    // The document's data for the browser leaves the drawings out: hydration must keep the HTML's.
    await page.goto(`${server.url}/admin/studies/1`);
    await page.waitForFunction(() => "__remixRouter" in window);
    await page.waitForLoadState("networkidle");
    const hydrated = await drawings();
    expect(hydrated).toMatchObject({ wide: 1, narrow: 1 });
    expect(hydrated.rows).toBeGreaterThan(0);
    const link = page.getByTestId("trend-chart").getByRole("link", { name: "Download SVG" });
    expect((await downloaded(page, link)).text.startsWith("<svg")).toBe(true);

    await page.goto(`${server.url}/admin/studies`);
    await page.waitForFunction(() => "__remixRouter" in window);
    const fetched: string[] = [];
    page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
    await page.locator('a[href="/admin/studies/1"]').first().click();
    await page.waitForURL(/\/admin\/studies\/1$/);
    const navigated = await drawings();
    expect(fetched).toContain("/admin/studies/1/charts");
    expect(navigated).toEqual(hydrated);
  });

  it("draws persona fidelity as dots with Wilson intervals on the A/B dashboard", async () => {
    const page = pages[1280];
    await page.goto(`${server.url}/admin/studies`);
    await page.getByRole("link", { name: "Demo: crowd A/B reactiveness" }).first().click();
    const chart = page.getByTestId("fidelity-chart");
    await chart.locator(".chart-wide svg").waitFor();
    const csv = (await downloaded(page, chart.getByRole("link", { name: "Download CSV" }))).text;
    const [header, ...lines] = csv.trim().split("\r\n");
    expect(header).toBe("label,estimate,low,high,n");
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      const [, estimate, low, high] = line.split(",").map(Number);
      expect(low).toBeLessThanOrEqual(estimate);
      expect(high).toBeGreaterThanOrEqual(estimate);
    }
  });

  it("at 390 px: no sideways page scroll, the narrow drawing shown and inside the screen, the table in its box", async () => {
    const page = pages[390];
    await page.goto(`${server.url}/admin/studies/1`);
    const chart = page.getByTestId("trend-chart");
    const narrow = chart.locator(".chart-narrow svg");
    await narrow.waitFor();
    expect(await chart.locator(".chart-wide svg").isVisible()).toBe(false);
    const box = (await narrow.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    await chart.getByText("Show data", { exact: true }).click();
    await chart.locator("table.chart-data-table").waitFor({ state: "visible" });
    const scroll = await page.evaluate(() => document.scrollingElement!.scrollWidth);
    expect(scroll).toBeLessThanOrEqual(390);
  });
});

/**
 * `npm run screenshots`: the run viewer, a study dashboard, a dashboard chart with its data table shown, both task
 * pages (consensus snippet, A/B reactiveness) and the demo benchmark's report at 1280 px and 390 px, from the real
 * server on a fresh demo database in Chromium, into exports/screenshots/ (git-ignored). Builds into build-screenshots/
 * so neither a running `npm start` (build/) nor a test run (build-test/) is disturbed.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { AB_REACTIVENESS } from "../app/task-types/ab-reactiveness/label.ts";
import { createAbStudy } from "../app/server/annotation/studies.server.ts";
import { crowdLinkSignature } from "../app/server/auth/crowd-link.server.ts";
import { loadGuidelines } from "../app/server/templates.server.ts";
import { openDatabase } from "../app/server/db.server.ts";
import { closeDatabase } from "../app/server/db-transaction.server.ts";
import { addAnnotator } from "../harness/annotation.ts";
import { startAppServer, type AppServer } from "../harness/app-server.ts";
import { launchChromium } from "../harness/browser.ts";
import { DEMO, loginInBrowser } from "../harness/login.ts";
import { buildApp, ROOT } from "../harness/test-build.ts";

const BUILD_DIR = "build-screenshots";
const OUT = join(ROOT, "exports", "screenshots");
const SECRET = "screenshots-session-secret";
const WIDTHS = [1280, 390] as const;
const DASHBOARD_STUDY = 1; // the demo's expert consensus study

interface Shot {
  name: string;
  /** Opens the page in a fresh, logged-in context and waits until it shows. */
  open: (page: Page, server: AppServer, abStudy: number) => Promise<void>;
  /** Shoot only this element (its test id) rather than the full page. */
  element?: string;
}

const demoRuns = JSON.parse(readFileSync(join(ROOT, "demo/demo-transactional.json"), "utf8")) as {
  runs: { id: string; mediated: boolean }[];
};
const mediatedRun = demoRuns.runs.find((r) => r.mediated)!;

const SHOTS: Shot[] = [
  {
    name: "run-viewer",
    open: async (page, server) => {
      await loginInBrowser(page, server.url, DEMO.admin);
      await page.goto(`${server.url}/runs/${encodeURIComponent(mediatedRun.id)}`);
      await page.getByTestId("consensus-chart").waitFor();
    },
  },
  {
    name: "dashboard",
    open: async (page, server) => {
      await loginInBrowser(page, server.url, DEMO.admin);
      await page.goto(`${server.url}/admin/studies/${DASHBOARD_STUDY}`);
      await page.locator("h1").first().waitFor();
    },
  },
  {
    // A dashboard chart with its data table shown (issue 32).
    name: "dashboard-chart-data",
    element: "trend-chart",
    open: async (page, server) => {
      await loginInBrowser(page, server.url, DEMO.admin);
      await page.goto(`${server.url}/admin/studies/${DASHBOARD_STUDY}`);
      const chart = page.getByTestId("trend-chart");
      await chart.getByText("Show data", { exact: true }).click();
      await chart.locator("table").waitFor();
    },
  },
  {
    name: "benchmark-report",
    open: async (page, server) => {
      await loginInBrowser(page, server.url, DEMO.admin);
      await page.goto(`${server.url}/benchmark`);
      await page.getByTestId("benchmark-plans").locator("tbody").getByRole("link").first().click();
      await page.getByTestId("report-figure4").locator("svg").first().waitFor({ state: "attached" });
    },
  },
  {
    name: "task-consensus",
    open: async (page, server) => {
      await loginInBrowser(page, server.url, DEMO.ada);
      await page.goto(`${server.url}/annotate/${DASHBOARD_STUDY}/next`);
      await page.locator("[data-item]").first().waitFor();
    },
  },
  {
    name: "task-ab",
    open: async (page, server, abStudy) => {
      const worker = "SCREENSHOT_W1";
      await page.goto(
        `${server.url}/crowd/start?${new URLSearchParams({ study: String(abStudy), worker, sig: crowdLinkSignature(abStudy, worker, SECRET) })}`,
      );
      await page.locator("[data-item]").first().waitFor();
    },
  },
];

async function capture(
  browser: Browser,
  server: AppServer,
  abStudy: number,
  shot: Shot,
  width: number,
): Promise<string> {
  const context = await browser.newContext({
    viewport: { width, height: width < 600 ? 844 : 900 },
    deviceScaleFactor: 1,
  });
  try {
    const page = await context.newPage();
    await shot.open(page, server, abStudy);
    const file = join(OUT, `${shot.name}-${width}.png`);
    if (shot.element) await page.getByTestId(shot.element).screenshot({ path: file });
    else await page.screenshot({ path: file, fullPage: true });
    return file;
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  console.log(`Building the app into ${BUILD_DIR}/…`);
  buildApp(BUILD_DIR);
  mkdirSync(OUT, { recursive: true });
  const server = await startAppServer({ env: { SOCRATES_BUILD_DIR: BUILD_DIR, SESSION_SECRET: SECRET } });
  const browser = await launchChromium();
  try {
    // The demo's A/B study is fully labelled: a fresh one, and a crowd worker who passed the
    // reading test, so their signed link leads straight to its task page.
    const db = await openDatabase(server.dbPath);
    const abStudy = await createAbStudy(db, {
      name: "Screenshots: crowd A/B reactiveness",
      pool: "crowd",
      guidelines: loadGuidelines(AB_REACTIVENESS),
      config: { seed: 5 },
    });
    await addAnnotator(db, "SCREENSHOT_W1", "crowd", true);
    await closeDatabase(db);
    for (const shot of SHOTS)
      for (const width of WIDTHS) console.log(`  ${await capture(browser, server, abStudy, shot, width)}`);
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();

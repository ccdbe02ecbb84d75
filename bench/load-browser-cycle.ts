/**
 * What a real browser sends for one annotation cycle, recorded in Chromium against the real
 * server: the first item loads as a document, the annotator answers at a human pace (so the
 * draft autosave fires) and submits with Ctrl+Enter, and the page moves to the next item. Prints
 * every request of the cycle (method, path, status). bench:annotation-http's browser client sends
 * this sequence; run this again when the task page's posting changes.
 *
 *   npx tsx bench/load-browser-cycle.ts        (needs Chromium; REBUILD=1 rebuilds build-test/ first)
 */
import { join } from "node:path";
import type { Page } from "playwright-core";
import { startAppServer } from "../harness/app-server.ts";
import { launchChromium } from "../harness/browser.ts";
import { loginInBrowser } from "../harness/login.ts";
import { tempDir } from "../harness/temp-db.ts";
import { ensureTestBuild } from "./load-build.ts";
import { prepareLoadDatabase } from "./load-fixture.ts";

export interface RecordedRequest {
  method: string;
  path: string;
  status: number;
}

/**
 * Types one answer the way the task page's keys take it: per topic, a letter per party, the score, then "j" to the next
 * topic.
 */
async function answer(page: Page, topics: number, parties: number): Promise<void> {
  for (let t = 0; t < topics; t++) {
    for (let p = 0; p < parties; p++) await page.keyboard.press("a", { delay: 60 });
    await page.keyboard.press("3", { delay: 60 });
    await page.keyboard.press("j", { delay: 60 });
  }
}

const onScreen = (page: Page) =>
  page.locator('[data-testid="task-page"]:not([data-busy])').getAttribute("data-item").then(Number);

export async function recordBrowserCycle(): Promise<RecordedRequest[]> {
  ensureTestBuild();
  const tmp = tempDir("socrates-bench-cycle-");
  const fixture = await prepareLoadDatabase(join(tmp.dir, "cycle.db"), { annotators: 1, trajectories: 2 });
  const server = await startAppServer({ dbPath: join(tmp.dir, "cycle.db") });
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await loginInBrowser(page, server.url, fixture.accounts[0]);
    await page.goto(`${server.url}/annotate/${fixture.studyId}/next`);
    await onScreen(page);
    await page.waitForLoadState("networkidle");
    let recorded: RecordedRequest[] = [];
    page.on("response", (res) => {
      const url = new URL(res.url());
      if (url.origin === server.url)
        recorded.push({ method: res.request().method(), path: url.pathname + url.search, status: res.status() });
    });
    const topics = Object.keys(fixture.label.topics).length;
    const parties = Object.keys(Object.values(fixture.label.topics)[0].positions).length;
    // Two cycles: the first also fetches what a browser keeps afterwards (the next page's code); the
    // second is the steady state.
    for (let cycle = 0; cycle < 2; cycle++) {
      recorded = [];
      const item = await onScreen(page);
      await answer(page, topics, parties);
      await page.waitForTimeout(1500); // a human pause: the draft autosave (0.8 s after the last key) goes out
      await page.keyboard.press("Control+Enter");
      await page.locator(`[data-testid="task-page"]:not([data-item="${item}"]):not([data-busy])`).waitFor();
      await page.waitForLoadState("networkidle");
    }
    return recorded;
  } finally {
    await browser.close();
    await server.stop();
    tmp.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const requests = await recordBrowserCycle();
  console.log("One submit → next item cycle in Chromium (the second after the first document load):");
  for (const r of requests) console.log(`  ${r.method.padEnd(4)} ${String(r.status).padStart(3)}  ${r.path}`);
}

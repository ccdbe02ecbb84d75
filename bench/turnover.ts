/**
 * Next-item turnover in Chromium (issue 32, target: p95 under 300 ms): the real server on its
 * seeded demo database, an expert signed in, the real task page. For N consensus items and N A/B
 * items it answers by keyboard, pauses as a person does (so the draft autosave goes out first),
 * presses Ctrl+Enter and times, inside the page, from that keydown to the next item ready (the
 * task page's data-item changed and no data-busy). Prints mean, median and p95 per type and
 * overall.
 *
 *   npm run bench:turnover     (N=20; REUSE_BUILD=1 serves the existing build as is; BUILD_DIR=dir builds/serves
 *                               another folder than build-test/, e.g. for the code before a change)
 */
import { asc, eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { studyItems } from "../db/schema.ts";
import { createAbStudy, createConsensusStudy } from "../app/server/annotation/studies.server.ts";
import { openDatabase } from "../app/server/db.server.ts";
import { validConsensusLabel } from "../harness/annotation.ts";
import { startAppServer } from "../harness/app-server.ts";
import { launchChromium } from "../harness/browser.ts";
import { DEMO, loginInBrowser } from "../harness/login.ts";
import { buildApp, TEST_BUILD_DIR } from "../harness/test-build.ts";

const N = Number(process.env.N ?? 20);
/** Another build to serve, e.g. one of older code to compare with under the same load. */
const BUILD_DIR = process.env.BUILD_DIR ?? TEST_BUILD_DIR;
/** A person reads before submitting; long enough for the draft autosave (0.8 s after the last key) to go out. */
const PAUSE_MS = 1200;

interface Timer {
  start: number;
  end: number;
}

/**
 * Stamps, in the page's own clock, the Ctrl+Enter keydown and the moment the next item is ready. A string, not a
 * function: tsx would wrap a function's inner helpers in a `__name` the page does not have.
 */
const TIMER_SCRIPT = (current: number) => `(() => {
  const t = (window.__turnover = { start: 0, end: 0 });
  const onKey = (e) => {
    if (e.key === "Enter" && e.ctrlKey && !t.start) t.start = performance.now();
  };
  document.addEventListener("keydown", onKey, { capture: true });
  const observer = new MutationObserver(() => {
    const el = document.querySelector('[data-testid="task-page"]');
    if (t.start && el && el.getAttribute("data-item") !== "${current}" && !el.hasAttribute("data-busy")) {
      t.end = performance.now();
      observer.disconnect();
      document.removeEventListener("keydown", onKey, { capture: true });
    }
  });
  observer.observe(document.body, { subtree: true, childList: true, attributes: true });
})()`;

async function armTimer(page: Page, item: number): Promise<void> {
  await page.evaluate(TIMER_SCRIPT(item));
}

const onScreen = (page: Page) =>
  page.locator('[data-testid="task-page"]:not([data-busy])').getAttribute("data-item").then(Number);

/** Answers the item on screen by keyboard and returns the turnover of its submit in milliseconds. */
async function turn(page: Page, keys: string[]): Promise<number> {
  const item = await onScreen(page);
  for (const key of keys) await page.keyboard.press(key);
  await page.waitForTimeout(PAUSE_MS);
  await armTimer(page, item);
  await page.keyboard.press("Control+Enter");
  await page.locator(`[data-testid="task-page"]:not([data-item="${item}"]):not([data-busy])`).waitFor();
  await page.waitForFunction("window.__turnover.end > 0");
  const t = (await page.evaluate("window.__turnover")) as Timer;
  return t.end - t.start;
}

function summary(label: string, ms: number[]): string {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const mean = sorted.reduce((s, x) => s + x, 0) / sorted.length;
  const f = (x: number) => `${Math.round(x)} ms`.padStart(8);
  return `  ${label.padEnd(10)} n=${String(sorted.length).padStart(3)}  mean ${f(mean)}  median ${f(at(0.5))}  p95 ${f(at(0.95))}  max ${f(sorted[sorted.length - 1])}`;
}

/** The keys that answer a consensus item: per topic a letter per party, a score, "j" to the next topic. */
function consensusKeys(shape: { topics: number; parties: number }): string[] {
  return Array.from({ length: shape.topics }, () => [...Array(shape.parties).fill("a"), "3", "j"]).flat();
}

async function main(): Promise<void> {
  if (process.env.REUSE_BUILD !== "1") {
    console.log(`Building the app (remix vite:build into ${BUILD_DIR}/)…`);
    buildApp(BUILD_DIR);
  }
  const server = await startAppServer({ env: { SOCRATES_BUILD_DIR: BUILD_DIR } });
  const browser = await launchChromium();
  try {
    const db = openDatabase(server.dbPath);
    // Enough trajectories for N snippets, and one A/B item per demo pair (N or fewer).
    const consensus = createConsensusStudy(db, {
      name: "Turnover",
      pool: "expert",
      trajectories: 6,
      config: { seed: 5 },
    });
    const ab = createAbStudy(db, { name: "Turnover A/B", pool: "expert", config: { seed: 5 } });
    const itemsOf = (studyId: number) =>
      db
        .select({ id: studyItems.id })
        .from(studyItems)
        .where(eq(studyItems.studyId, studyId))
        .orderBy(asc(studyItems.position))
        .all();
    const probe = itemsOf(consensus);
    const counts = { consensus: probe.length, "A/B": itemsOf(ab).length };
    const shapes = new Map(
      probe.map(({ id }) => {
        const label = validConsensusLabel(db, id);
        const topics = Object.values(label.topics);
        return [id, { topics: topics.length, parties: Object.keys(topics[0].positions).length }];
      }),
    );
    db.$client.close();

    const page = await browser.newPage();
    await loginInBrowser(page, server.url, DEMO.ada);
    const figures: Record<string, number[]> = { consensus: [], "A/B": [] };
    for (const [type, studyId] of [
      ["consensus", consensus],
      ["A/B", ab],
    ] as const) {
      await page.goto(`${server.url}/annotate/${studyId}/next`);
      await onScreen(page);
      await page.waitForLoadState("networkidle");
      // One warm-up turn: the first also loads code a browser keeps afterwards.
      // The last item's submit leads to "All done", not to an item: it is left out.
      for (let i = 0; i <= N && i < counts[type] - 1; i++) {
        const keys = type === "A/B" ? ["1"] : consensusKeys(shapes.get(await onScreen(page))!);
        const ms = await turn(page, keys);
        if (i > 0) figures[type].push(ms);
      }
    }
    console.log(`Next-item turnover in Chromium (Ctrl+Enter → next item ready), after one warm-up turn per type:`);
    for (const [type, ms] of Object.entries(figures)) if (ms.length) console.log(summary(type, ms));
    console.log(summary("overall", Object.values(figures).flat()));
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();

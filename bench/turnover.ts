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
import { loadavg } from "node:os";
import { asc, eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { studyItems } from "../db/schema.ts";
import { createAbStudy, createConsensusStudy } from "../app/server/annotation/studies.server.ts";
import { openDatabase } from "../app/server/db.server.ts";
import { closeDatabase } from "../app/server/db-transaction.server.ts";
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
  /** Requests the page sent and React commits made between the keydown and the next item ready. */
  requests: number;
  commits: number;
}

/**
 * Counts React's commits: React reports each to the devtools hook when one is there (a stand-in
 * that only counts). Commits and requests per turn do not depend on the machine's load, the times do.
 */
const COMMIT_COUNTER = `window.__commits = [];
window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
  supportsFiber: true, renderers: new Map(), inject() { return 1; }, checkDCE() {},
  onScheduleFiberRoot() {}, onCommitFiberUnmount() {}, onPostCommitFiberRoot() {},
  onCommitFiberRoot() { window.__commits.push(performance.now()); },
};`;

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
      t.commits = window.__commits.filter((c) => c >= t.start).length;
      t.requests = performance
        .getEntriesByType("resource")
        .filter((e) => e.startTime >= t.start && e.startTime <= t.end && !e.name.endsWith(".svg")).length;
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
async function turn(page: Page, keys: string[]): Promise<Timer> {
  const item = await onScreen(page);
  for (const key of keys) await page.keyboard.press(key);
  await page.waitForTimeout(PAUSE_MS);
  await armTimer(page, item);
  await page.keyboard.press("Control+Enter");
  await page.locator(`[data-testid="task-page"]:not([data-item="${item}"]):not([data-busy])`).waitFor();
  await page.waitForFunction("window.__turnover.end > 0");
  const t = (await page.evaluate("window.__turnover")) as Timer;
  return t;
}

function summary(label: string, turns: Timer[]): string {
  const sorted = turns.map((t) => t.end - t.start).sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const mean = sorted.reduce((s, x) => s + x, 0) / sorted.length;
  const f = (x: number) => `${Math.round(x)} ms`.padStart(8);
  const per = (key: "requests" | "commits") => (turns.reduce((s, t) => s + t[key], 0) / turns.length).toFixed(1);
  return (
    `  ${label.padEnd(10)} n=${String(sorted.length).padStart(3)}  mean ${f(mean)}  median ${f(at(0.5))}  ` +
    `p95 ${f(at(0.95))}  max ${f(sorted[sorted.length - 1])}  requests ${per("requests")}  commits ${per("commits")}`
  );
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
    const db = await openDatabase(server.dbPath);
    // Enough trajectories for N snippets, and one A/B item per demo pair (N or fewer).
    const consensus = await createConsensusStudy(db, {
      name: "Turnover",
      pool: "expert",
      trajectories: 6,
      config: { seed: 5 },
    });
    const ab = await createAbStudy(db, { name: "Turnover A/B", pool: "expert", config: { seed: 5 } });
    const itemsOf = async (studyId: number) =>
      await db
        .select({ id: studyItems.id })
        .from(studyItems)
        .where(eq(studyItems.studyId, studyId))
        .orderBy(asc(studyItems.position));
    const probe = await itemsOf(consensus);
    const counts = { consensus: probe.length, "A/B": (await itemsOf(ab)).length };
    const shapes = new Map(
      await Promise.all(
        probe.map(async ({ id }): Promise<[number, { topics: number; parties: number }]> => {
          const label = await validConsensusLabel(db, id);
          const topics = Object.values(label.topics);
          return [id, { topics: topics.length, parties: Object.keys(topics[0].positions).length }];
        }),
      ),
    );
    await closeDatabase(db);

    const page = await browser.newPage();
    await loginInBrowser(page, server.url, DEMO.ada);
    await page.addInitScript(COMMIT_COUNTER);
    const figures: Record<string, Timer[]> = { consensus: [], "A/B": [] };
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
        const timed = await turn(page, keys);
        if (i > 0) figures[type].push(timed);
      }
    }
    console.log(
      `Next-item turnover in Chromium (Ctrl+Enter → next item ready), after one warm-up turn per type ` +
        `(requests and React commits: means per turn; load average ${loadavg()[0].toFixed(1)}):`,
    );
    for (const [type, turns] of Object.entries(figures)) if (turns.length) console.log(summary(type, turns));
    console.log(summary("overall", Object.values(figures).flat()));
  } finally {
    await browser.close();
    await server.stop();
  }
}

await main();

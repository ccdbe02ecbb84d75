/**
 * axe-core (WCAG 2.0/2.1/2.2 A and AA) over every page of the app, in Chromium against the real
 * server: as anonymous visitor, admin, expert and crowd worker, each page state at 1280 and 390 px
 * and in the dark theme (the system's, through prefers-color-scheme). The crowd worker's states
 * include every end of a crowd session: Prolific's completion code and its failed-test page,
 * MTurk's submitted assignment and refused link-out, nothing left, a closed study, the reading
 * test out of attempts and the network's cap reached. States past a limit are reached by seeding
 * the attempts in the server's database, so the limits stay as the server applies them. A test
 * fails on any violation and lists each page's rule ids, impacts and failing nodes.
 */
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, it } from "vitest";
import * as schema from "../../db/schema.ts";
import { signAssignment } from "../../app/crowd-channels/mturk/external-question-token.server.ts";
import { crowdLinkSignature } from "../../app/server/auth/crowd-link.server.ts";
import { nextTask } from "../../app/server/annotation/assignment.server.ts";
import { submitLabel } from "../../app/server/annotation/submit.server.ts";
import { playedScenarioOfRun, snippetContext } from "../../app/server/annotation/task-view.server.ts";
import {
  type AttemptOrigin,
  MAX_QUALIFICATION_ATTEMPTS,
  networkLimitReached,
  recordQualificationAttempt,
} from "../../app/server/crowd/qualification.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { networkIdentity } from "../../app/server/http/load-context.server.ts";
import { loadQualificationTest } from "../../app/server/templates.server.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { axeViolations, describeViolations } from "../../harness/axe.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { createCrowdAbStudy, DEMO, signIn } from "../../harness/login.ts";

const SECRET = "accessibility-test-secret";
const EXPERT_STUDY = 1; // the demo's expert consensus study
const FULL_STUDY = 3; // the demo's crowd A/B study, which has no work left on a fresh database
const qualification = loadQualificationTest();
// A mediated run: its viewer shows the mediator's turns, whose numbers failed contrast before.
const demo = JSON.parse(readFileSync("demo/demo-transactional.json", "utf8")) as {
  runs: { id: string; mediated: boolean }[];
};

/** Ada labels one snippet of the expert study (so My labels, a label's page and the revise page have content). */
async function adaLabelsOneSnippet(dbPath: string): Promise<{ itemId: number; labelId: number }> {
  const db = await openDatabase(dbPath);
  try {
    const ada = (
      await db.select().from(schema.annotators).where(eq(schema.annotators.username, DEMO.ada.username)).limit(1)
    )[0]!.id;
    const itemId = (await nextTask(db, EXPERT_STUDY, ada))!.itemId;
    const item = (await db.select().from(schema.studyItems).where(eq(schema.studyItems.id, itemId)).limit(1))[0]!;
    const { body } = await playedScenarioOfRun(db, (await snippetContext(db, item.snippetId!)).runId);
    const topics = Object.fromEntries(
      body.topics.map((t) => [
        t.id,
        { score: 3, carriedForward: false, positions: Object.fromEntries(body.parties.map((p) => [p.id, "A"])) },
      ]),
    );
    await submitLabel(db, {
      studyId: EXPERT_STUDY,
      itemId,
      annotatorId: ada,
      payload: { kind: "consensus-snippet", topics },
      clientToken: "accessibility-e2e",
      secondsOnTask: 20,
    });
    const label = (await db.select().from(schema.labels).where(eq(schema.labels.studyItemId, itemId)).limit(1))[0]!;
    return { itemId, labelId: label.id };
  } finally {
    db.$client.close();
  }
}

/** Labels, as the crowd worker and through the app's own services, every item the study still offers them. */
async function labelEverythingLeft(dbPath: string, externalId: string, studyId: number): Promise<number> {
  const db = await openDatabase(dbPath);
  try {
    const worker = (
      await db.select().from(schema.annotators).where(eq(schema.annotators.externalId, externalId)).limit(1)
    )[0]!;
    let labelled = 0;
    for (let lease = await nextTask(db, studyId, worker.id); lease; lease = await nextTask(db, studyId, worker.id)) {
      await submitLabel(db, {
        studyId,
        itemId: lease.itemId,
        annotatorId: worker.id,
        payload: { kind: "ab-reactiveness", choice: "A" },
        clientToken: `a11y-done-${lease.itemId}`,
        secondsOnTask: 5,
      });
      if (++labelled > 500) throw new Error(`the worker ${externalId} was offered more than 500 items`);
    }
    return labelled;
  } finally {
    db.$client.close();
  }
}

/**
 * Failed reading-test attempts recorded for a worker, as the test's form records them. With `network` they count
 * against that network's cap (until it is reached); without, only against the worker's own three.
 */
async function failedAttempts(dbPath: string, externalId: string, network?: AttemptOrigin): Promise<void> {
  const db = await openDatabase(dbPath);
  try {
    const worker = (
      await db.select().from(schema.annotators).where(eq(schema.annotators.externalId, externalId)).limit(1)
    )[0]!;
    if (!network) {
      for (let i = 0; i < MAX_QUALIFICATION_ATTEMPTS; i++)
        await recordQualificationAttempt(db, worker.id, qualification, {});
      return;
    }
    for (let i = 0; !(await networkLimitReached(db, network)); i++) {
      if (i >= 100) throw new Error("100 attempts recorded and the network's cap is still not reached");
      await recordQualificationAttempt(db, worker.id, qualification, {}, network);
    }
  } finally {
    db.$client.close();
  }
}

/** One SQL statement on the server's database (a HIT as `mturk publish` stores it, a study closed). */
async function execute(dbPath: string, sql: string, ...args: unknown[]): Promise<void> {
  const db = await openDatabase(dbPath);
  try {
    db.$client.prepare(sql).run(...args);
  } finally {
    db.$client.close();
  }
}

/** A page state to audit: how to reach it from a page signed in (or not) as the role. */
interface Visit {
  name: string;
  /** Opens the state; returns another page when the state was opened there. */
  // biome-ignore lint/suspicious/noConfusingVoidType: most states open on the page given and return nothing.
  open: (page: Page) => Promise<Page | undefined | void>;
}

/** The page has hydrated (root.tsx marks <html>): what axe reads is what the annotator gets. */
const hydrated = (page: Page) => page.locator("html[data-hydrated]").waitFor({ state: "attached" });
const ready = async (page: Page) => {
  await hydrated(page);
  await page.locator("h1").first().waitFor();
};
/** A page state reached by its address; `shows` (a test id, or a CSS selector) tells it from its neighbours. */
const visit = (name: string, path: string | (() => string), shows?: string): Visit => ({
  name,
  open: async (page) => {
    await page.goto(base + (typeof path === "string" ? path : path()));
    if (shows) await (/^[a-z-]+$/.test(shows) ? page.getByTestId(shows) : page.locator(shows)).first().waitFor();
    await ready(page);
  },
});
const taskPage = async (page: Page) => {
  await page.locator('[data-testid="task-page"]:not([data-busy])').waitFor();
  await hydrated(page);
};

let base = "";
let dbPath = "";
const found = { scenario: "", run: "", plan: "", item: 0, label: 0, abStudy: 0, abItem: 0 };
/** A signed per-worker crowd link (to the A/B study the admin created, unless another is given). */
const worker = (id: string, study = found.abStudy) =>
  `/crowd/start?${new URLSearchParams({ study: String(study), worker: id, sig: crowdLinkSignature(study, id, SECRET) })}`;
/** Prolific's study URL as Prolific fills it in for one participant's session. */
const prolific = (pid: string, session: string, study = found.abStudy) =>
  `/crowd/start?${new URLSearchParams({ study: String(study), PROLIFIC_PID: pid, STUDY_ID: "6a0000000000000000000a11", SESSION_ID: session })}`;
const P1 = "5f00000000000000000a1101";
const P2 = "5f00000000000000000a1102";
/** An MTurk ExternalQuestion assignment on the A/B study's first item, its answers going back to the sandbox. */
const HIT = { assignmentId: "3A11YASSIGNMENT1", hitId: "3A11YHIT00001", workerId: "AA11YWORKER1" };
const mturkTask = (assignmentId: string) =>
  `/mturk/task?${new URLSearchParams({ study: String(found.abStudy), item: String(found.abItem), ...HIT, assignmentId, turkSubmitTo: "https://workersandbox.mturk.com" })}`;

async function answerQualification(page: Page, right: boolean): Promise<void> {
  for (const [i, q] of qualification.questions.entries()) {
    const option = right ? q.answer : q.options.find((o) => o.id !== q.answer)!.id;
    await page.locator("fieldset.qualify-question").nth(i).locator(`input[value="${option}"]`).check();
  }
  await page.getByRole("button", { name: "Submit answers" }).click();
}

/** Opens a crowd link; with `signOut`, someone else is signed in here and the worker confirms the switch. */
async function enter(page: Page, path: string, signOut: boolean): Promise<void> {
  await page.goto(base + path);
  if (signOut) await page.getByRole("button", { name: "Sign out and start the study" }).click();
}

/** The reading test, the task page and the states a worker meets entering the study. */
const crowdEntryVisits: Visit[] = [
  {
    // Its button presses itself once the app's scripts run: the page as served, read without them.
    name: "crowd start",
    open: async (page) => {
      const still = await page.context().newPage();
      // The app's bundles blocked (axe still runs: it is evaluated, not loaded).
      await still.route("**/assets/*.js", (route) => route.abort());
      await still.goto(base + worker("W_A11Y"));
      await still.getByTestId("crowd-start").waitFor();
      return still;
    },
  },
  {
    name: "crowd qualify",
    open: async (page) => {
      await page.goto(base + worker("W_A11Y"));
      await page.waitForURL(/\/crowd\/qualify/);
      await ready(page);
    },
  },
  {
    name: "crowd qualify, a wrong answer shown",
    open: async (page: Page) => {
      await answerQualification(page, false);
      await page.getByTestId("qualify-result").waitFor();
    },
  },
  {
    name: "A/B task page",
    open: async (page) => {
      await answerQualification(page, true);
      await page.waitForURL(/\/annotate\/\d+\/items\/\d+/);
      await taskPage(page);
    },
  },
  {
    name: "crowd start, another worker signed in",
    open: async (page) => {
      await page.goto(base + worker("W_A11Y_OTHER"));
      await page.getByTestId("crowd-start-confirm").waitFor();
      await hydrated(page);
    },
  },
  visit("crowd start, no work left", () => worker("W_A11Y_LATE", FULL_STUDY), "crowd-no-work"),
  visit(
    "crowd start, a link without a worker (error page)",
    () => `/crowd/start?study=${found.abStudy}`,
    ".error-page",
  ),
];

/** MTurk's pages: the HIT's preview, the bare task URL, an assignment already submitted, a link-out HIT refused. */
const mturkVisits: Visit[] = [
  {
    name: "MTurk task (preview)",
    open: async (page) => {
      await page.goto(base + mturkTask("ASSIGNMENT_ID_NOT_AVAILABLE"));
      await page.getByTestId("mturk-task").waitFor();
      await hydrated(page);
    },
  },
  visit("MTurk task page without a HIT (400)", "/mturk/task", "mturk-task-about"),
  {
    name: "MTurk task, assignment already submitted",
    open: async (page) => {
      const token = signAssignment(
        { studyId: found.abStudy, itemId: found.abItem, ...HIT, turkSubmitTo: "https://workersandbox.mturk.com" },
        SECRET,
      );
      const payload = JSON.stringify({ kind: "ab-reactiveness", choice: "B" });
      const body = new URLSearchParams({ intent: "submit", token, payload, secondsOnTask: "7" });
      const res = await fetch(base + mturkTask(HIT.assignmentId), { method: "POST", body });
      if (res.status !== 200) throw new Error(`the MTurk submit answered ${res.status}: ${await res.text()}`);
      await page.goto(base + mturkTask(HIT.assignmentId));
      await page.getByTestId("mturk-handoff").waitFor();
      await hydrated(page);
    },
  },
  visit(
    "crowd start from an MTurk link-out HIT (refused)",
    () => `/crowd/start?study=${found.abStudy}&assignmentId=3A11YLINKOUT&hitId=3A11YHIT00002&workerId=AA11YWORKER2`,
    "crowd-refused",
  ),
];

/** Prolific's ends: the completion code, a failed reading test, a full study, a link missing an id. */
const prolificVisits: Visit[] = [
  visit(
    "Prolific link missing the session id (refused)",
    () => prolific(P1, "a11y-no-session").replace(/&SESSION_ID=[^&]*/, ""),
    "crowd-refused",
  ),
  visit("Prolific, no work left", () => prolific(P1, "a11y-full-session", FULL_STUDY), "crowd-no-work"),
  {
    name: "Prolific completion code",
    open: async (page) => {
      await enter(page, prolific(P1, "a11y-session-1"), true);
      await page.waitForURL(/\/crowd\/qualify/);
      await answerQualification(page, true);
      await page.waitForURL(/\/annotate\/\d+\/items\/\d+/);
      const item = page.url().split("/").pop();
      await page.locator(`[data-testid="task-page"][data-item="${item}"]:not([data-busy])`).waitFor();
      await hydrated(page);
      await page.keyboard.press("1");
      await page.keyboard.press("Enter");
      await page.waitForURL(/\/crowd\/done\?study=\d+$/);
      await page.getByTestId("completion-code").waitFor();
      await hydrated(page);
    },
  },
  {
    name: "Prolific, reading test failed: return the study",
    open: async (page) => {
      await enter(page, prolific(P2, "a11y-session-2"), true);
      await page.waitForURL(/\/crowd\/qualify/);
      await failedAttempts(dbPath, P2);
      await page.goto(`${base}/crowd/qualify?study=${found.abStudy}`);
      await page.getByTestId("prolific-not-qualified").waitFor();
      await hydrated(page);
    },
  },
];

/** The ends of a signed link's session: out of attempts, a closed study, the network's cap, nothing left. */
const crowdEndVisits: Visit[] = [
  {
    name: "crowd qualify, out of attempts",
    open: async (page) => {
      await enter(page, worker("W_A11Y_LOCKED"), true);
      await page.waitForURL(/\/crowd\/qualify/);
      await failedAttempts(dbPath, "W_A11Y_LOCKED");
      await page.reload();
      await page.getByText(`You have used all ${MAX_QUALIFICATION_ATTEMPTS} attempts`).waitFor();
      await hydrated(page);
    },
  },
  {
    name: "crowd start, study closed",
    open: async (page) => {
      await execute(dbPath, "UPDATE studies SET status = 'closed' WHERE id = ?", FULL_STUDY);
      await page.goto(base + worker("W_A11Y_CLOSED", FULL_STUDY));
      await page.getByText("This study is closed").waitFor();
      await hydrated(page);
    },
  },
  {
    name: "crowd qualify, the network's attempts used up",
    open: async (page) => {
      await enter(page, worker("W_A11Y_NETWORK"), true);
      await page.waitForURL(/\/crowd\/qualify/);
      // Every worker here is 127.0.0.1: its cap is filled up to the limit the server applies.
      const origin = { studyId: found.abStudy, network: networkIdentity({ clientAddress: "127.0.0.1" }, SECRET) };
      // Recorded as another worker's (the one out of attempts), so this worker still has attempts of their own.
      await failedAttempts(dbPath, "W_A11Y_LOCKED", origin);
      await page.reload();
      await page.getByTestId("qualify-network-limit").waitFor();
      await hydrated(page);
    },
  },
  {
    name: "all done in the study",
    open: async (page) => {
      // The first worker comes back to the item they hold, and is then given every item left.
      await enter(page, worker("W_A11Y"), true);
      await page.waitForURL(/\/annotate\/\d+\/items\/\d+/);
      if ((await labelEverythingLeft(dbPath, "W_A11Y", found.abStudy)) === 0)
        throw new Error("W_A11Y had nothing to label");
      await page.goto(`${base}/annotate/${found.abStudy}/next`);
      await page.getByTestId("next-none").waitFor();
      await hydrated(page);
    },
  },
];

const ROLES: Record<string, { account?: { username: string; password: string }; visits: Visit[] }> = {
  anonymous: {
    visits: [visit("home", "/"), visit("login", "/login"), visit("404", "/no-such-page")],
  },
  admin: {
    account: DEMO.admin,
    visits: [
      visit("home", "/"),
      visit("studies list", "/admin/studies"),
      visit("study dashboard", `/admin/studies/${EXPERT_STUDY}`),
      visit("A/B study dashboard", () => `/admin/studies/${found.abStudy}`),
      visit("annotators", "/admin/annotators"),
      visit("scenarios list", "/scenarios"),
      visit("scenario detail", () => found.scenario),
      visit("runs list", "/runs"),
      visit("run detail", () => found.run),
      visit("benchmark list", "/benchmark"),
      visit("benchmark plan", () => found.plan),
      visit("404", "/no-such-page"),
    ],
  },
  expert: {
    account: DEMO.ada,
    visits: [
      visit("my tasks", "/annotate"),
      visit("task settings", "/annotate/settings"),
      visit("my labels", `/annotate/${EXPERT_STUDY}/mine`),
      visit("label page", () => `/labels/${found.label}`),
      {
        name: "consensus task page",
        open: async (page) => {
          await page.goto(`${base}/annotate/${EXPERT_STUDY}/next`);
          await taskPage(page);
        },
      },
      {
        name: "revise page",
        open: async (page) => {
          await page.goto(`${base}/annotate/${EXPERT_STUDY}/items/${found.item}?from=mine`);
          await taskPage(page);
        },
      },
      visit("403 error page", "/admin/studies"),
      visit("404", "/no-such-page"),
    ],
  },
  "crowd worker": { visits: [...crowdEntryVisits, ...mturkVisits, ...prolificVisits, ...crowdEndVisits] },
};

/**
 * Each page state is opened once, at 1280 px in the light theme, and audited as it is, then at 390 px (the viewport
 * resized: the layout answers to media queries and resize observers) and in the dark theme at 1280 px.
 */
const VARIANTS = [
  { name: "1280 px", width: 1280, colorScheme: "light" as const },
  { name: "390 px", width: 390, colorScheme: "light" as const },
  { name: "dark theme at 1280 px", width: 1280, colorScheme: "dark" as const },
];
const HEIGHT = 900;

/** The state's violations in every variant, one block per variant that has any; leaves the page as it opened. */
async function auditVariants(page: Page): Promise<string[]> {
  const failures: string[] = [];
  for (const variant of VARIANTS) {
    await page.setViewportSize({ width: variant.width, height: HEIGHT });
    await page.emulateMedia({ colorScheme: variant.colorScheme });
    // Two frames: media-query listeners have re-rendered and the new layout is painted.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const violations = await axeViolations(page);
    if (violations.length) failures.push(`   at ${variant.name}:\n${describeViolations(violations)}`);
  }
  await page.setViewportSize({ width: VARIANTS[0].width, height: HEIGHT });
  await page.emulateMedia({ colorScheme: VARIANTS[0].colorScheme });
  return failures;
}

describe.runIf(runBrowserTests)("no axe violations on any page, role and width", { timeout: 300_000 }, () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startAppServer({ env: { SESSION_SECRET: SECRET } });
    base = server.url;
    dbPath = server.dbPath;
    browser = await launchChromium();
    const labelled = await adaLabelsOneSnippet(server.dbPath);
    found.item = labelled.itemId;
    found.label = labelled.labelId;
    // The detail pages' addresses, as an admin finds them from the lists; a crowd A/B study with work to do, open to
    // Prolific participants one item a session.
    const page = await browser.newPage();
    await signIn(page, base, DEMO.admin);
    found.abStudy = await createCrowdAbStudy(page, base, "Accessibility A/B");
    await page.getByLabel("Completion code").fill("A11YCODE7");
    await page.getByLabel("Items per session").fill("1");
    await page.getByRole("button", { name: "Save Prolific settings" }).click();
    await page.getByText("Prolific settings saved.").waitFor();
    const db = await openDatabase(server.dbPath);
    found.abItem = (
      db.$client.prepare("SELECT id FROM study_items WHERE study_id = ? ORDER BY id LIMIT 1").get(found.abStudy) as {
        id: number;
      }
    ).id;
    db.$client.close();
    await execute(
      dbPath,
      `INSERT INTO mturk_hits (hit_id, environment, hit_type_id, study_id, study_item_id, max_assignments, reward_usd) VALUES (?, 'sandbox', 'A11YTYPE', ?, ?, 3, 0.5)`,
      HIT.hitId,
      found.abStudy,
      found.abItem,
    );
    const href = async (path: string, selector: string) => {
      await page.goto(base + path);
      return (await page.locator(selector).first().getAttribute("href"))!;
    };
    found.scenario = await href("/scenarios", 'main a[href^="/scenarios/"]');
    found.run = `/runs/${encodeURIComponent(demo.runs.find((r) => r.mediated)!.id)}`;
    found.plan = await href("/benchmark", 'main a[href^="/benchmark/"]');
    await page.close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  // The roles side by side, each in its own browser context: their states do not depend on one another.
  for (const [role, { account, visits }] of Object.entries(ROLES)) {
    it.concurrent(`${role}: every page at 1280 and 390 px and in the dark theme`, async ({ expect }) => {
      const context: BrowserContext = await browser.newContext({
        viewport: { width: VARIANTS[0].width, height: HEIGHT },
        colorScheme: VARIANTS[0].colorScheme,
      });
      // A step that cannot find its page fails with the step's name, well inside the test's time.
      context.setDefaultTimeout(20_000);
      // Prolific's completion page sends the participant on after a countdown: the stand-in answers 204, so the
      // browser stays on the page being audited.
      await context.route("https://app.prolific.com/**", (route) => route.fulfill({ status: 204 }));
      const page = await context.newPage();
      if (account) await signIn(page, base, account);
      const failures: string[] = [];
      let audited = 0;
      for (const v of visits) {
        const opened =
          (await v.open(page).catch((e: Error) => {
            throw new Error(`opening ${v.name} as ${role}: ${e.message}`);
          })) ?? page;
        const inVariants = await auditVariants(opened);
        audited++;
        if (inVariants.length) failures.push(`── ${v.name} (${opened.url()})\n${inVariants.join("\n")}`);
        if (opened !== page) await opened.close();
      }
      await context.close();
      expect(audited).toBe(visits.length);
      expect(failures.join("\n"), role).toBe("");
    });
  }
});

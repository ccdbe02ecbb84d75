/**
 * axe-core (WCAG 2.0/2.1/2.2 A and AA) over every page of the app, in Chromium against the real
 * server: as anonymous visitor, admin, expert and crowd worker, at 1280 and 390 px, and in the dark
 * theme (the system's, through prefers-color-scheme) at 1280 px. A test fails on any violation and
 * lists each page's rule ids, impacts and failing nodes.
 */
import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "../../db/schema.ts";
import { crowdLinkSignature } from "../../app/server/auth/crowd-link.server.ts";
import { nextTask } from "../../app/server/annotation/assignment.server.ts";
import { submitLabel } from "../../app/server/annotation/submit.server.ts";
import { playedScenarioOfRun, snippetContext } from "../../app/server/annotation/task-view.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { loadQualificationTest } from "../../app/server/templates.server.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { axeViolations, describeViolations } from "../../harness/axe.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { createCrowdAbStudy, DEMO, loginInBrowser } from "../../harness/login.ts";

const SECRET = "accessibility-test-secret";
const EXPERT_STUDY = 1; // the demo's expert consensus study
const FULL_STUDY = 3; // the demo's crowd A/B study, which has no work left on a fresh database
const qualification = loadQualificationTest();
// A mediated run: its viewer shows the mediator's turns, whose numbers failed contrast before.
const demo = JSON.parse(readFileSync("demo/demo-transactional.json", "utf8")) as {
  runs: { id: string; mediated: boolean }[];
};

/** Ada labels one snippet of the expert study (so My labels, a label's page and the revise page have content). */
function adaLabelsOneSnippet(dbPath: string): { itemId: number; labelId: number } {
  const db = openDatabase(dbPath);
  try {
    const ada = db.select().from(schema.annotators).where(eq(schema.annotators.username, DEMO.ada.username)).get()!.id;
    const itemId = nextTask(db, EXPERT_STUDY, ada)!.itemId;
    const item = db.select().from(schema.studyItems).where(eq(schema.studyItems.id, itemId)).get()!;
    const { body } = playedScenarioOfRun(db, snippetContext(db, item.snippetId!).runId);
    const topics = Object.fromEntries(
      body.topics.map((t) => [
        t.id,
        { score: 3, carriedForward: false, positions: Object.fromEntries(body.parties.map((p) => [p.id, "A"])) },
      ]),
    );
    submitLabel(db, {
      studyId: EXPERT_STUDY,
      itemId,
      annotatorId: ada,
      payload: { kind: "consensus-snippet", topics },
      clientToken: "accessibility-e2e",
      secondsOnTask: 20,
    });
    const label = db.select().from(schema.labels).where(eq(schema.labels.studyItemId, itemId)).get()!;
    return { itemId, labelId: label.id };
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

/** A new page's options matching `page`'s viewport and colour scheme. */
const pageOptions = async (page: Page) => ({
  viewport: page.viewportSize(),
  colorScheme: (await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches))
    ? ("dark" as const)
    : ("light" as const),
});

const ready = async (page: Page) => {
  await page.waitForLoadState("networkidle");
  await page.locator("h1").first().waitFor();
};
const visit = (name: string, path: string | (() => string)): Visit => ({
  name,
  open: async (page) => {
    await page.goto(base + (typeof path === "string" ? path : path()));
    await ready(page);
  },
});
const taskPage = async (page: Page) => {
  await page.locator('[data-testid="task-page"]:not([data-busy])').waitFor();
  await page.waitForLoadState("networkidle");
};

let base = "";
const found = { scenario: "", run: "", plan: "", item: 0, label: 0, abStudy: 0, abItem: 0 };
/** A signed per-worker crowd link (to the A/B study the admin created, unless another is given). */
const worker = (id: string, study = found.abStudy) =>
  `/crowd/start?${new URLSearchParams({ study: String(study), worker: id, sig: crowdLinkSignature(study, id, SECRET) })}`;

async function answerQualification(page: Page, right: boolean): Promise<void> {
  for (const [i, q] of qualification.questions.entries()) {
    const option = right ? q.answer : q.options.find((o) => o.id !== q.answer)!.id;
    await page.locator("fieldset.qualify-question").nth(i).locator(`input[value="${option}"]`).check();
  }
  await page.getByRole("button", { name: "Submit answers" }).click();
}

const ROLES: Record<string, { account?: { username: string; password: string }; visits: (tag: string) => Visit[] }> = {
  anonymous: {
    visits: () => [visit("home", "/"), visit("login", "/login"), visit("404", "/no-such-page")],
  },
  admin: {
    account: DEMO.admin,
    visits: () => [
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
    visits: () => [
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
  "crowd worker": {
    visits: (tag) => [
      {
        // Its button presses itself once the app's scripts run: the page as served, read without them.
        name: "crowd start",
        open: async (page) => {
          const still = await page
            .context()
            .browser()!
            .newPage(await pageOptions(page));
          // The app's bundles blocked (axe still runs: it is evaluated, not loaded).
          await still.route("**/assets/*.js", (route) => route.abort());
          await still.goto(base + worker(`W_A11Y_${tag}`));
          await still.getByTestId("crowd-start").waitFor();
          return still;
        },
      },
      {
        name: "crowd qualify",
        open: async (page) => {
          await page.goto(base + worker(`W_A11Y_${tag}`));
          await page.waitForURL(/\/crowd\/qualify/);
          await ready(page);
        },
      },
      // Once: the server limits reading-test attempts per network, and every worker here is 127.0.0.1.
      ...(tag === "1280"
        ? [
            {
              name: "crowd qualify, a wrong answer shown",
              open: async (page: Page) => {
                await answerQualification(page, false);
                await page.getByTestId("qualify-result").waitFor();
              },
            },
          ]
        : []),
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
          await page.goto(base + worker(`W_A11Y_FAIL_${tag}`));
          await page.getByTestId("crowd-start-confirm").waitFor();
          await page.waitForLoadState("networkidle");
        },
      },
      visit("crowd start, no work left", () => worker(`W_A11Y_LATE_${tag}`, FULL_STUDY)),
      {
        name: "MTurk task (preview)",
        open: async (page) => {
          const params = {
            study: String(found.abStudy),
            item: String(found.abItem),
            assignmentId: "ASSIGNMENT_ID_NOT_AVAILABLE",
          };
          await page.goto(`${base}/mturk/task?${new URLSearchParams(params)}`);
          await page.getByTestId("mturk-task").waitFor();
          await page.waitForLoadState("networkidle");
        },
      },
    ],
  },
};

const VARIANTS = [
  { tag: "1280", width: 1280, colorScheme: "light" as const },
  { tag: "390", width: 390, colorScheme: "light" as const },
  { tag: "dark", width: 1280, colorScheme: "dark" as const },
];

describe.runIf(runBrowserTests)("no axe violations on any page, role and width", { timeout: 180_000 }, () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startAppServer({ env: { SESSION_SECRET: SECRET } });
    base = server.url;
    browser = await launchChromium();
    const labelled = adaLabelsOneSnippet(server.dbPath);
    found.item = labelled.itemId;
    found.label = labelled.labelId;
    // The detail pages' addresses, as an admin finds them from the lists; a crowd A/B study with work to do.
    const page = await browser.newPage();
    await loginInBrowser(page, base, DEMO.admin);
    found.abStudy = await createCrowdAbStudy(page, base, "Accessibility A/B");
    const db = openDatabase(server.dbPath);
    found.abItem = (
      db.$client.prepare("SELECT id FROM study_items WHERE study_id = ? ORDER BY id LIMIT 1").get(found.abStudy) as {
        id: number;
      }
    ).id;
    db.$client.close();
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

  for (const variant of VARIANTS) {
    for (const [role, { account, visits }] of Object.entries(ROLES)) {
      it(`${role}, ${variant.colorScheme} theme at ${variant.width} px`, async () => {
        const context: BrowserContext = await browser.newContext({
          viewport: { width: variant.width, height: 900 },
          colorScheme: variant.colorScheme,
        });
        // A step that cannot find its page fails with the step's name, well inside the test's time.
        context.setDefaultTimeout(20_000);
        const page = await context.newPage();
        if (account) await loginInBrowser(page, base, account);
        const failures: string[] = [];
        let audited = 0;
        for (const v of visits(variant.tag)) {
          const opened =
            (await v.open(page).catch((e: Error) => {
              throw new Error(`opening ${v.name} as ${role}: ${e.message}`);
            })) ?? page;
          const violations = await axeViolations(opened);
          audited++;
          if (violations.length) failures.push(`── ${v.name} (${opened.url()})\n${describeViolations(violations)}`);
          if (opened !== page) await opened.close();
        }
        await context.close();
        expect(audited).toBe(visits(variant.tag).length);
        expect(failures.join("\n"), `${role} ${variant.tag}`).toBe("");
      });
    }
  }
});

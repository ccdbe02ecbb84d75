/**
 * The annotation platform in Chromium, through the real production server and a fresh demo
 * database: experts label with the keyboard alone, the admin reads the dashboard, a crowd worker
 * qualifies and labels an A/B pair, and ownership and pool boundaries answer 403.
 */
import Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { createCrowdAbStudy, DEMO, loginCookie, signIn } from "../../harness/login.ts";
import { loadQualificationTest } from "../../app/server/templates.server.ts";
import { importBundleRecords } from "../../app/server/bundle-store.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import type { TopicJudgeOutput } from "../../app/domain/bundle.ts";

// The test process reads the server's test (the demo one) to answer it; a browser is never sent the key.
const qualification = loadQualificationTest();

/** Waits until the item in the URL is on screen and its keyboard handler is live ("?" opens the cheat sheet). */
async function waitForShortcuts(page: Page): Promise<void> {
  const itemId = new URL(page.url()).pathname.split("/").pop();
  await page.locator(`[data-testid="task-page"][data-item="${itemId}"]`).waitFor();
  await page.waitForLoadState("networkidle");
  await page.keyboard.press("?");
  await page.getByRole("dialog").waitFor();
  await page.keyboard.press("Escape");
  await page.getByRole("dialog").waitFor({ state: "detached" });
}

/**
 * Labels the open snippet with keys only: per topic, one option letter per party (the party
 * cursor advances by itself), then the score, then "j" to the next topic. A topic listed in
 * `carry` is carried forward with "r" instead. Ctrl+Enter submits and goes to the next item.
 */
async function labelSnippetByKeyboard(
  page: Page,
  option: string,
  score: number,
  carry: string[] = [],
): Promise<string> {
  await waitForShortcuts(page);
  const url = page.url();
  const topics = await page
    .locator("fieldset[data-topic]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-topic") as string));
  for (const topic of topics) {
    if (carry.includes(topic)) {
      await page.keyboard.press("r");
    } else {
      const parties = await page
        .locator(`fieldset[data-topic="${topic}"] [role="radiogroup"][aria-label*="position on"]`)
        .count();
      for (let p = 0; p < parties; p++) await page.keyboard.press(option);
      await page.keyboard.press(String(score));
    }
    await page.keyboard.press("j");
  }
  await page.keyboard.press("Control+Enter");
  await page.waitForURL((u) => u.toString() !== url);
  return url;
}

async function checkedScore(page: Page, topic: string): Promise<string | null> {
  return page
    .locator(
      `fieldset[data-topic="${topic}"] [role="radio"][aria-checked="true"][aria-label^="1:"], fieldset[data-topic="${topic}"] [role="radio"][aria-checked="true"][aria-label^="2:"], fieldset[data-topic="${topic}"] [role="radio"][aria-checked="true"][aria-label^="3:"], fieldset[data-topic="${topic}"] [role="radio"][aria-checked="true"][aria-label^="4:"], fieldset[data-topic="${topic}"] [role="radio"][aria-checked="true"][aria-label^="5:"]`,
    )
    .first()
    .getAttribute("aria-label");
}

/**
 * Stores a copy of demo-judge's topic-localized evaluations of study 1's runs under `backbone`, every score s as 6 − s.
 */
async function storeReversedJudge(dbPath: string, backbone: string): Promise<void> {
  const db = await openDatabase(dbPath);
  const sql =
    "SELECT id, run_id, output FROM evaluations WHERE method = 'topic-localized' AND backbone = 'demo-judge' AND run_id IN (SELECT run_id FROM study_items WHERE study_id = 1)";
  const rows = db.$client.prepare(sql).all() as { id: string; run_id: string; output: string }[];
  const evaluations = rows.map((r) => {
    const output = JSON.parse(r.output) as Record<string, TopicJudgeOutput>;
    for (const topic of Object.values(output)) for (const a of topic.agreement_score) a.score = 6 - a.score;
    return {
      id: `${r.run_id}:topic-localized:${backbone}`,
      run_id: r.run_id,
      method: "topic-localized" as const,
      backbone,
      output,
    };
  });
  expect(evaluations.length).toBeGreaterThan(0);
  await importBundleRecords(db, "<reversed judge>", { evaluations });
  db.$client.close();
}

describe.runIf(runBrowserTests)("annotation platform in Chromium", { timeout: 120_000 }, () => {
  let server: AppServer;
  let browser: Browser;
  let studyId = 0;
  let abStudyId = 0;
  const itemUrls: string[] = [];

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("an admin creates an expert consensus study", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.admin);
    await page.goto(server.url + "/admin/studies");
    await page.getByLabel("Name").fill("E2E consensus study");
    await page.getByLabel(/Trajectories to sample/).fill("1");
    await page.getByRole("button", { name: "Create study" }).click();
    await page.waitForURL(/\/admin\/studies\/\d+$/);
    studyId = Number(new URL(page.url()).pathname.split("/").pop());
    await page.getByRole("heading", { name: "E2E consensus study" }).waitFor();
    await page.close();
  });

  it("an expert labels two snippets with the keyboard alone, reloads and finds them", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.url, DEMO.ada);
    // The next page's GET writes nothing; it posts for the next item by itself (issue 29).
    await page.goto(`${server.url}/annotate/${studyId}/next`);
    await page.waitForURL(/\/items\/\d+$/);

    // Blinding: no model, condition or evaluator names anywhere in the task page.
    const html = await page.content();
    for (const secret of ["demo-judge", "mediated", "general:", "Topic-localized", "reactiveness level"])
      expect(html).not.toContain(secret);

    itemUrls.push(await labelSnippetByKeyboard(page, "a", 3));
    const firstTopic = (await page.locator("fieldset[data-topic]").first().getAttribute("data-topic")) as string;
    itemUrls.push(await labelSnippetByKeyboard(page, "b", 4, [firstTopic]));

    await page.reload();
    await page.goto(`${server.url}/annotate/${studyId}/mine`);
    await expect(page.getByTestId("my-labels").locator("tbody tr").count()).resolves.toBe(2);
    await page.goto(itemUrls[0]);
    await page.getByTestId("task-page").waitFor();
    expect(await checkedScore(page, firstTopic)).toMatch(/^3:/);
    await page.goto(itemUrls[1]);
    await page.getByTestId("task-page").waitFor();
    expect(await checkedScore(page, firstTopic)).toMatch(/^3:/); // carried forward from the first snippet
    await context.close();
  });

  it("the server refuses bad submissions with a clear message and stores nothing", async () => {
    const cookie = await loginCookie(server.url, DEMO.ada);
    const revisions = () => {
      const db = new Database(server.dbPath, { readonly: true });
      const n = (db.prepare(`SELECT count(*) AS n FROM label_revisions`).get() as { n: number }).n;
      db.close();
      return n;
    };
    const before = revisions();
    const post = (url: string, payload: unknown) =>
      fetch(url, {
        method: "POST",
        headers: { cookie },
        body: new URLSearchParams({
          intent: "submit",
          payload: JSON.stringify(payload),
          clientToken: `bad-${Math.random().toString(36).slice(2, 12)}`,
          secondsOnTask: "5",
        }),
        redirect: "manual",
      });
    const outOfRange = await post(itemUrls[0], {
      kind: "consensus-snippet",
      topics: { X: { score: 6, carriedForward: false, positions: {} } },
    });
    expect(outOfRange.status).toBe(400);
    expect(await outOfRange.text()).toMatch(/a score is 1 to 5/);
    const forged = await post(`${server.url}/annotate/${studyId}/items/999999`, {
      kind: "ab-reactiveness",
      choice: "A",
    });
    expect(forged.status).toBe(404);
    expect(await forged.text()).toMatch(/Item 999999 of study \d+ does not exist/);
    const otherStudy = await post(itemUrls[0].replace(`/annotate/${studyId}/`, "/annotate/424242/"), {
      kind: "ab-reactiveness",
      choice: "A",
    });
    expect(otherStudy.status).toBe(404);
    expect(revisions()).toBe(before);
  });

  it("a second expert labels the same snippets", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.url, DEMO.ben);
    await page.goto(`${server.url}/annotate/${studyId}/next`);
    await page.waitForURL(/\/items\/\d+$/);
    expect(page.url()).toBe(itemUrls[0]);
    await labelSnippetByKeyboard(page, "a", 4);
    expect(page.url()).toBe(itemUrls[1]);
    await labelSnippetByKeyboard(page, "b", 5);
    await context.close();
  });

  it("the admin's dashboard shows alpha and the alignment table", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.admin);
    await page.goto(`${server.url}/admin/studies/${studyId}`);
    const agreement = page.getByTestId("agreement-panel");
    await agreement.waitFor();
    expect(await agreement.textContent()).toMatch(/interval\s*−?\d\.\d{3}/);
    expect(await agreement.textContent()).toMatch(/ordinal\s*−?\d\.\d{3}/);
    const alignment = page.getByTestId("alignment-table");
    expect(await alignment.textContent()).toContain("Topic-localized evaluator (demo-judge)");
    // The per-turn baseline row shows where the study's runs have per-turn evaluations. The one
    // trajectory sampled here is one of the demo benchmark's stand-in runs, judged topic-localized
    // only; the demo's expert study (study 1) samples the hand-written runs, which have both.
    const perTurnEvaluations = (id: number) => {
      const db = new Database(server.dbPath, { readonly: true });
      const sql =
        "SELECT count(*) AS n FROM evaluations WHERE method = 'per-turn' AND run_id IN (SELECT run_id FROM study_items WHERE study_id = ?)";
      const n = (db.prepare(sql).get(id) as { n: number }).n;
      db.close();
      return n;
    };
    expect(perTurnEvaluations(studyId)).toBe(0);
    expect(await alignment.textContent()).not.toContain("Per-turn baseline");
    expect(perTurnEvaluations(1)).toBeGreaterThan(0);
    await page.goto(`${server.url}/admin/studies/1`);
    expect(await page.getByTestId("alignment-table").textContent()).toContain("Per-turn baseline (demo-judge)");
    await page.close();
  });

  it("the dashboard tests every stored backbone against a reference chosen by ?reference=", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.admin);
    await page.goto(`${server.url}/admin/studies/1`);
    const panel = page.getByTestId("backbone-comparison");
    expect(await panel.textContent()).toContain("Only demo-judge has evaluated these runs");

    // A second backbone on the demo expert study's runs: demo-judge's replies with every score
    // reversed (s → 6 − s), stored as an evaluate run would store them.
    await storeReversedJudge(server.dbPath, "reversed-judge");
    await page.goto(`${server.url}/admin/studies/1`);
    expect(await page.getByTestId("alignment-table").textContent()).toContain(
      "Topic-localized evaluator (reversed-judge)",
    );
    expect(await page.getByTestId("comparison-reference").textContent()).toBe("demo-judge");
    const reversed = panel.locator('tr[data-backbone="reversed-judge"][data-level="trajectory"]');
    expect(await reversed.textContent()).toContain("significantly below the reference");
    expect(await page.getByTestId("comparison-constants").textContent()).toMatch(/\d+ draws, seed \d+/);

    // Switching the reference is a plain GET link; the exclusion switch in the address stays.
    await page.goto(`${server.url}/admin/studies/1?exclude=flagged`);
    await panel.locator('a[data-reference="reversed-judge"]').click();
    await page.waitForURL((u) => u.searchParams.get("reference") === "reversed-judge");
    expect(new URL(page.url()).searchParams.get("exclude")).toBe("flagged");
    await expect.poll(() => page.getByTestId("comparison-reference").textContent()).toBe("reversed-judge");
    expect(await panel.locator('tr[data-backbone="demo-judge"][data-level="trajectory"]').textContent()).toContain(
      "significantly above the reference",
    );

    // An unknown backbone is no error: the default is used, and the page says so.
    const res = await page.goto(`${server.url}/admin/studies/1?reference=no-such-judge`);
    expect(res?.status()).toBe(200);
    expect(await panel.textContent()).toContain(
      "No stored backbone is called “no-such-judge”; comparing against the default, demo-judge, instead.",
    );
    await page.close();
  });

  it("a crowd worker fails and then passes the qualification test and submits an A/B choice", async () => {
    const admin = await browser.newPage();
    await signIn(admin, server.url, DEMO.admin);
    abStudyId = await createCrowdAbStudy(admin, server.url, "E2E A/B study");
    await admin.getByLabel("Worker id").fill("E2EWORKER1");
    await admin.getByRole("button", { name: "Make link" }).click();
    const link = (await admin.getByTestId("crowd-link").textContent()) as string;
    await admin.close();

    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(link);
    await page.waitForURL(/\/crowd\/qualify/);
    const answer = async (pick: (q: (typeof qualification.questions)[number]) => string) => {
      for (const [i, q] of qualification.questions.entries()) {
        await page
          .locator(`fieldset.qualify-question`)
          .nth(i)
          .locator(`input[value="${pick(q)}"]`)
          .check();
      }
      await page.getByRole("button", { name: "Submit answers" }).click();
    };
    await answer((q) => q.options.find((o) => o.id !== q.answer)!.id);
    await expect(page.getByTestId("qualify-result").textContent()).resolves.toMatch(/You answered 0 of 5/);
    await answer((q) => q.answer);
    await page.waitForURL(new RegExp(`/annotate/${abStudyId}/items/\\d+`));
    const itemUrl = page.url();
    await page.getByTestId("task-page").waitFor();
    await page.waitForLoadState("networkidle");
    await page.keyboard.press("2");
    await page.keyboard.press("Enter");
    await page.waitForURL((u) => u.toString() !== itemUrl);
    // The link admits the worker to its own study only, not to every crowd study.
    const demoCrowdStudy = await page.goto(`${server.url}/annotate/3/next`);
    expect(demoCrowdStudy?.status()).toBe(403);
    await page.getByText("Please open this study through the link you were given").waitFor();
    await context.close();

    const cookie = await loginCookie(server.url, DEMO.admin);
    const csv = await (
      await fetch(`${server.url}/admin/studies/${abStudyId}/labels.csv`, { headers: { cookie } })
    ).text();
    const rows = csv.trim().split("\r\n");
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatch(/,B$/);
  });

  it("an admin creates an A/B study from an uploaded bundle; a bad bundle is refused with its JSON path", async () => {
    const cookie = await loginCookie(server.url, DEMO.admin);
    const demoPairs = JSON.parse(readFileSync("demo/demo-ab-reactiveness.json", "utf8")).ab_pairs as { id: string }[];
    const upload = (pairs: unknown[], name: string) => {
      const form = new FormData();
      for (const [k, v] of Object.entries({
        type: "ab-reactiveness",
        name,
        pool: "crowd",
        guidelines: "Compare the two conversations.",
      }))
        form.set(k, v);
      form.set(
        "bundle",
        new Blob([JSON.stringify({ format: "socrates-bundle", version: 1, ab_pairs: pairs })], {
          type: "application/json",
        }),
        "pairs.json",
      );
      return fetch(server.url + "/admin/studies", {
        method: "POST",
        headers: { cookie },
        body: form,
        redirect: "manual",
      });
    };
    const good = await upload([{ ...demoPairs[0], id: "uploaded-pair" }], "Uploaded pairs");
    expect(good.status).toBe(302);
    const study = Number(good.headers.get("location")!.split("/").pop());
    const db = new Database(server.dbPath, { readonly: true });
    expect(db.prepare(`SELECT ab_pair_id AS p FROM study_items WHERE study_id = ?`).all(study)).toEqual([
      { p: "uploaded-pair" },
    ]);
    db.close();
    const bad = await upload([{ ...demoPairs[0], id: "broken-pair", run_b_id: "no-such-run" }], "Broken");
    expect(bad.status).toBe(400);
    expect(await bad.text()).toMatch(/pairs\.json: \$\.ab_pairs\[0\]\.run_b_id/);
  });

  it("an expert opening another annotator's label or a study outside their pool gets 403", async () => {
    const db = new Database(server.dbPath, { readonly: true });
    const bensLabel = db
      .prepare(
        `SELECT l.id FROM labels l JOIN annotators a ON a.id = l.annotator_id JOIN study_items i ON i.id = l.study_item_id WHERE a.username = 'ben' AND i.study_id = ? LIMIT 1`,
      )
      .get(studyId) as { id: number };
    const adasLabel = db
      .prepare(
        `SELECT l.id FROM labels l JOIN annotators a ON a.id = l.annotator_id JOIN study_items i ON i.id = l.study_item_id WHERE a.username = 'ada' AND i.study_id = ? LIMIT 1`,
      )
      .get(studyId) as { id: number };
    db.close();

    const context = await browser.newContext();
    const page = await context.newPage();
    await signIn(page, server.url, DEMO.ada);
    const other = await page.goto(`${server.url}/labels/${bensLabel.id}`);
    expect(other?.status()).toBe(403);
    await page.getByText("This label belongs to another annotator").waitFor();
    const crowdStudy = await page.goto(`${server.url}/annotate/${abStudyId}/next`);
    expect(crowdStudy?.status()).toBe(403);
    await page.getByText(/This study is for the crowd pool/).waitFor();
    const admin = await page.goto(`${server.url}/admin/studies/${studyId}`);
    expect(admin?.status()).toBe(403);
    const own = await page.goto(`${server.url}/labels/${adasLabel.id}`);
    expect(own?.status()).toBe(200);
    await page.getByTestId("revisions").waitFor();
    await context.close();
  });
});

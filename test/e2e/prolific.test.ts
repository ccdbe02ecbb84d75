/**
 * Prolific in Chromium, through the real production server: the admin sets a crowd study's
 * Prolific settings on the dashboard; a participant opens the study URL with Prolific's ids,
 * passes the reading test, labels the configured number of pairs and lands on the completion
 * page, which sends them to Prolific's completion URL (intercepted: the test never leaves the
 * machine); a participant who fails the test is asked to return the study; the dashboard then
 * shows the Prolific channel. The participant's labels stay pending until Prolific's export,
 * imported with `socrates prolific import`, lists the session.
 */
import Database from "better-sqlite3";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { runCli } from "../helpers/cli.ts";
import { tempDir } from "../../harness/temp-db.ts";
import { createCrowdAbStudy, DEMO, loginCookie, signIn } from "../../harness/login.ts";
import { loadQualificationTest } from "../../app/server/templates.server.ts";

// The test process reads the server's test (the demo one) to answer it; a browser is never sent the key.
const qualification = loadQualificationTest();

const CODE = "E2EPROLIFIC7";
const ITEMS_PER_SESSION = 2;

/** Prolific's study URL with the placeholders filled in, as Prolific does for each participant. */
const fill = (template: string, ids: { pid: string; study: string; session: string }) =>
  template
    .replace("{{%PROLIFIC_PID%}}", ids.pid)
    .replace("{{%STUDY_ID%}}", ids.study)
    .replace("{{%SESSION_ID%}}", ids.session);

async function answerTest(page: Page, pick: (q: (typeof qualification.questions)[number]) => string): Promise<void> {
  for (const [i, q] of qualification.questions.entries()) {
    await page
      .locator("fieldset.qualify-question")
      .nth(i)
      .locator(`input[value="${pick(q)}"]`)
      .check();
  }
  await page.getByRole("button", { name: "Submit answers" }).click();
}
const wrong = (q: (typeof qualification.questions)[number]) => q.options.find((o) => o.id !== q.answer)!.id;

describe.runIf(runBrowserTests)("Prolific participants in Chromium", { timeout: 120_000 }, () => {
  let server: AppServer;
  let browser: Browser;
  let studyId = 0;
  let studyUrl = "";

  beforeAll(async () => {
    server = await startAppServer();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const labelStatuses = () => {
    const db = new Database(server.dbPath, { readonly: true });
    const rows = db
      .prepare(
        `SELECT l.status FROM labels l JOIN study_items i ON i.id = l.study_item_id WHERE i.study_id = ? ORDER BY l.id`,
      )
      .all(studyId) as { status: string }[];
    db.close();
    return rows.map((r) => r.status);
  };

  const sessions = () => {
    const db = new Database(server.dbPath, { readonly: true });
    const rows = db
      .prepare(
        `SELECT c.external_id AS sessionId, c.external_group_id AS studyId, c.status, c.work_seconds AS workSeconds, c.reward_usd AS reward, a.external_id AS pid
         FROM crowd_assignments c JOIN annotators a ON a.id = c.annotator_id WHERE c.channel = 'prolific' AND c.study_id = ? ORDER BY c.id`,
      )
      .all(studyId) as {
      sessionId: string;
      studyId: string;
      status: string;
      workSeconds: number | null;
      reward: number | null;
      pid: string;
    }[];
    db.close();
    return rows;
  };

  it("the admin sets the Prolific settings on a crowd study's dashboard; until then participants are turned away", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.admin);
    studyId = await createCrowdAbStudy(page, server.url, "E2E Prolific study");
    await page.getByTestId("prolific-not-set-up").waitFor();

    // Not set up yet: a participant gets a plain refusal asking them to return the study.
    const early = await fetch(
      `${server.url}/crowd/start?study=${studyId}&PROLIFIC_PID=early1&STUDY_ID=pstudy&SESSION_ID=early-session`,
    );
    expect(early.status).toBe(409);
    expect(await early.text()).toContain("not ready for Prolific participants yet");

    // The server checks what the browser's own checks would let through.
    const cookie = await loginCookie(server.url, DEMO.admin);
    const bad = await fetch(`${server.url}/admin/studies/${studyId}`, {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams({ intent: "prolific", completionCode: "lower1", itemsPerSession: "0", rewardUsd: "" }),
    });
    expect(bad.status).toBe(400);
    const badPage = await bad.text();
    expect(badPage).toContain("4–20 upper-case letters or digits");
    expect(badPage).toContain("items per session must be at least 1");

    await page.getByLabel("Completion code").fill(CODE);
    await page.getByLabel("Items per session").fill(String(ITEMS_PER_SESSION));
    await page.getByLabel(/Reward per session/).fill("1.50");
    await page.getByRole("button", { name: "Save Prolific settings" }).click();
    await page.getByText("Prolific settings saved.").waitFor();
    studyUrl = (await page.getByTestId("prolific-url").textContent()) as string;
    expect(studyUrl).toBe(
      `${server.url}/crowd/start?study=${studyId}&PROLIFIC_PID={{%PROLIFIC_PID%}}&STUDY_ID={{%STUDY_ID%}}&SESSION_ID={{%SESSION_ID%}}`,
    );
    await page.close();
  });

  it("a link with a missing or unfilled id is refused, the id named in words", async () => {
    const missing = await fetch(`${server.url}/crowd/start?study=${studyId}&PROLIFIC_PID=abc&STUDY_ID=pstudy`);
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("The Prolific session ID is missing.");
    const unfilled = await fetch(studyUrl);
    expect(unfilled.status).toBe(400);
    expect(await unfilled.text()).toContain("Your Prolific ID still holds Prolific&#x27;s placeholder");
  });

  it("a participant qualifies, labels the session's pairs, sees the completion code and is sent to Prolific with it", async () => {
    const context = await browser.newContext();
    // Stand in for Prolific: remember where the browser was sent, answer with a blank page.
    const prolificVisits: string[] = [];
    await context.route("https://app.prolific.com/**", (route) => {
      prolificVisits.push(route.request().url());
      return route.fulfill({ status: 200, contentType: "text/html", body: "<p>Prolific stand-in</p>" });
    });
    const page = await context.newPage();
    const link = fill(studyUrl, {
      pid: "5f0000000000000000000001",
      study: "6a0000000000000000000abc",
      session: "session-one",
    });
    await page.goto(link);
    await page.waitForURL(/\/crowd\/qualify/);
    await answerTest(page, (q) => q.answer);

    for (let i = 0; i < ITEMS_PER_SESSION; i++) {
      await page.waitForURL(new RegExp(`/annotate/${studyId}/items/\\d+`));
      const itemUrl = page.url();
      const itemId = itemUrl.split("/").pop();
      // Not busy: the page has painted this item after the last submit, so answer keys count (keys
      // typed before that are dropped on purpose, issue 28).
      await page.locator(`[data-testid="task-page"][data-item="${itemId}"]:not([data-busy])`).waitFor();
      await page.waitForLoadState("networkidle");
      await page.keyboard.press(i === 0 ? "1" : "2");
      await page.keyboard.press("Enter");
      await page.waitForURL((u) => u.toString() !== itemUrl);
    }

    await page.waitForURL(new RegExp(`/crowd/done\\?study=${studyId}$`));
    expect(await page.getByTestId("completion-code").textContent()).toBe(CODE);
    const completion = `https://app.prolific.com/submissions/complete?cc=${CODE}`;
    expect(await page.getByTestId("prolific-return").getAttribute("href")).toBe(completion);
    await page.getByTestId("prolific-countdown").waitFor();
    // The page sends the participant on by itself after a few seconds.
    await page.waitForURL(completion, { timeout: 20_000 });
    expect(prolificVisits).toEqual([completion]);

    const [row] = sessions();
    expect(row).toMatchObject({
      sessionId: "session-one",
      studyId: "6a0000000000000000000abc",
      pid: "5f0000000000000000000001",
      status: "submitted",
      reward: 1.5,
    });
    expect(row.workSeconds).toBeGreaterThan(0);

    // Opening the link again shows the code again and records nothing new.
    await page.goto(link);
    await page.waitForURL(new RegExp(`/crowd/done\\?study=${studyId}$`));
    expect(await page.getByTestId("completion-code").textContent()).toBe(CODE);
    expect(sessions()).toHaveLength(1);
    await context.close();
  });

  it("a participant who fails the reading test three times is asked to return the study and gets no code", async () => {
    const context = await browser.newContext();
    await context.route("https://app.prolific.com/**", (route) => route.fulfill({ status: 200, body: "stand-in" }));
    const page = await context.newPage();
    const link = fill(studyUrl, {
      pid: "5f0000000000000000000002",
      study: "6a0000000000000000000abc",
      session: "session-two",
    });
    await page.goto(link);
    await page.waitForURL(/\/crowd\/qualify/);
    for (let i = 0; i < 2; i++) {
      await answerTest(page, wrong);
      await page.getByTestId("qualify-result").waitFor();
    }
    // The third miss leads straight to the page that asks them to return the study.
    await answerTest(page, wrong);
    await page.waitForURL(new RegExp(`/crowd/done\\?study=${studyId}$`));
    await page.getByTestId("prolific-not-qualified").waitFor();

    // So does opening the link again.
    await page.goto(link);
    await page.waitForURL(new RegExp(`/crowd/done\\?study=${studyId}$`));
    const text = (await page.getByTestId("prolific-not-qualified").textContent()) as string;
    expect(text).toMatch(/return your place in the study/);
    expect(text).not.toContain(CODE);
    expect(await page.getByTestId("completion-code").count()).toBe(0);
    // Tasks stay closed to them.
    await page.goto(`${server.url}/annotate/${studyId}/next`);
    await page.waitForURL(new RegExp(`/crowd/done\\?study=${studyId}$`));
    expect(sessions().map((s) => s.status)).toEqual(["submitted", "accepted"]);
    await context.close();
  });

  it("the dashboard shows the Prolific channel", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.admin);
    await page.goto(`${server.url}/admin/studies/${studyId}`);
    const row = page.getByTestId("channel-table").locator('tr[data-channel="prolific"]');
    await row.waitFor();
    const cells = await row.locator("td").allTextContents();
    // Channel, workers, labels, assignments, approved, rejected, pending, median time, hourly pay, gold.
    expect(cells.slice(0, 7)).toEqual(["Prolific", "2", String(ITEMS_PER_SESSION), "2", "0", "0", "1"]);
    expect(cells[7]).toMatch(/^\d+ s$|^\d+ min \d\d s$/);
    expect(cells[8]).toMatch(/^\$\d+\.\d\d\/h$/);
    await page.close();
  });

  it("labels stay pending until Prolific's export, imported with the CLI, confirms the session; the panel shows the counts", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.admin);
    await page.goto(`${server.url}/admin/studies/${studyId}`);
    const counts = page.getByTestId("prolific-sessions");
    expect([await counts.getAttribute("data-confirmed"), await counts.getAttribute("data-pending")]).toEqual([
      "0",
      "2",
    ]);
    expect(labelStatuses()).toEqual(Array(ITEMS_PER_SESSION).fill("pending"));

    const dir = tempDir("socrates-prolific-export-");
    const file = join(dir.dir, "prolific_export.csv");
    writeFileSync(
      file,
      "Submission id,Participant id,Status,Started at,Completed at,Time taken,Completion code\n" +
        `session-one,5f0000000000000000000001,AWAITING REVIEW,2026-03-02T10:00:00Z,2026-03-02T10:09:00Z,540,${CODE}\n` +
        "session-two,5f0000000000000000000002,RETURNED,2026-03-02T10:00:00Z,,,\n",
    );
    const r = runCli(["prolific", "import", "--study", String(studyId), file], { SOCRATES_DB: server.dbPath });
    dir.cleanup();
    expect(r.stderr).toBe("");
    expect(r.stdout).toContain(`2 rows read: confirmed 1 session; ${ITEMS_PER_SESSION} labels counted, 0 surplus`);
    expect(r.stdout).toContain("still pending: 1 RETURNED");
    expect(labelStatuses()).toEqual(Array(ITEMS_PER_SESSION).fill("counted"));

    await page.reload();
    expect([await counts.getAttribute("data-confirmed"), await counts.getAttribute("data-pending")]).toEqual([
      "1",
      "1",
    ]);
    await page.close();
  });
});

/**
 * Issue 29, findings 3, 5 and 6, against the real production server over HTTP (and Chromium for
 * the cross-site cases): invented MTurk workers on a published HIT, a flood of made-up Prolific
 * entries, and another site's link and <img> aimed at a signed-in expert. Each is shown refused:
 * a GET stores nothing, unsigned entries are limited per network, and the k places of an item go
 * to honest workers. State is checked in the server's database.
 */
import Database from "better-sqlite3";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crowdLinkSignature } from "../../app/server/auth/crowd-link.server.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { DEMO, loginCookie, signIn } from "../../harness/login.ts";

const SECRET = "e2e-secret-for-the-crowd-strangers-test";
const ENTRIES_PER_NETWORK = 5;
/** A submit address the server allows (nothing is ever posted to it here). */
const STAND_IN = "http://127.0.0.1:9";
const HIT = "3STRANGERHIT01";

interface TestQuestion {
  id: string;
  answer: string;
}
const demoTest = JSON.parse(readFileSync("demo/qualification/english-comprehension.json", "utf8")) as {
  questions: TestQuestion[];
};
const rightAnswers = new URLSearchParams(demoTest.questions.map((q) => [q.id, q.answer]));

let server: AppServer;
let studyId = 0;

function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(server.dbPath, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
const one = (sql: string, ...params: unknown[]) => query<{ n: number }>(sql, ...params)[0].n;
const crowdRows = () => ({
  annotators: one(`SELECT count(*) AS n FROM annotators WHERE role = 'crowd'`),
  assignments: one(`SELECT count(*) AS n FROM assignments`),
  crowdAssignments: one(`SELECT count(*) AS n FROM crowd_assignments`),
  sessions: one(`SELECT count(*) AS n FROM sessions`),
});
/** Leased or submitted rows on an item (what held a place before issue 29). */
const liveRows = (itemId: number) =>
  one(`SELECT count(*) AS n FROM assignments WHERE study_item_id = ? AND status IN ('leased', 'submitted')`, itemId);
const cookieOf = (res: Response) => res.headers.get("set-cookie")!.split(";")[0];
const post = (path: string, body: URLSearchParams, headers: Record<string, string> = {}) =>
  fetch(server.url + path, { method: "POST", body, headers, redirect: "manual" });

beforeAll(async () => {
  server = await startAppServer({
    env: {
      SESSION_SECRET: SECRET,
      MTURK_SUBMIT_ORIGINS: STAND_IN,
      CROWD_ENTRIES_PER_NETWORK: String(ENTRIES_PER_NETWORK),
    },
  });
  // A demo crowd study that still has work (an item with a free place), set up for Prolific by the admin.
  studyId = query<{ id: number }>(
    `SELECT s.id FROM studies s WHERE s.pool = 'crowd' AND s.status = 'open' AND EXISTS (SELECT 1 FROM study_items i WHERE i.study_id = s.id
       AND (SELECT count(*) FROM assignments a WHERE a.study_item_id = i.id AND a.status IN ('leased', 'submitted')) < s.labels_per_item) ORDER BY s.id LIMIT 1`,
  )[0].id;
  const set = await post(
    `/admin/studies/${studyId}`,
    new URLSearchParams({ intent: "prolific", completionCode: "STRANGE1", itemsPerSession: "3", rewardUsd: "" }),
    {
      cookie: await loginCookie(server.url, DEMO.admin),
    },
  );
  expect(set.status).toBeLessThan(400);
});
afterAll(async () => {
  await server?.stop();
});

describe("finding 3: invented MTurk workers on a published HIT", { timeout: 180_000 }, () => {
  it("200 GETs with invented worker ids store nothing, and the item's k places go to honest workers", async () => {
    const k = one(`SELECT labels_per_item AS n FROM studies WHERE id = ?`, studyId);
    // The item a fresh verified worker would get first: the first by position with a free place.
    const target = query<{ id: number }>(
      `SELECT i.id FROM study_items i WHERE i.study_id = ? AND (SELECT count(*) FROM assignments a WHERE a.study_item_id = i.id AND a.status IN ('leased', 'submitted')) < ? ORDER BY i.position LIMIT 1`,
      studyId,
      k,
    )[0].id;
    const writable = new Database(server.dbPath);
    try {
      writable
        .prepare(
          `INSERT INTO mturk_hits (hit_id, environment, hit_type_id, study_id, study_item_id, max_assignments, reward_usd) VALUES (?, 'sandbox', 'STRANGERTYPE', ?, ?, ?, 0.5)`,
        )
        .run(HIT, studyId, target, k);
    } finally {
      writable.close();
    }
    const freeBefore = k - liveRows(target);
    const before = crowdRows();

    for (let i = 0; i < 200; i++) {
      const params = new URLSearchParams({
        study: String(studyId),
        item: String(target),
        assignmentId: `3FORGEDASSIGN${i}`,
        hitId: HIT,
        workerId: `AFORGED${i}`,
        turkSubmitTo: STAND_IN,
      });
      const res = await fetch(`${server.url}/mturk/task?${params}`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    expect(crowdRows()).toEqual(before);
    expect(liveRows(target)).toBe(k - freeBefore);

    // Honest workers on signed links, each qualified, ask for their next item by POST.
    const gotTarget: string[] = [];
    for (let w = 0; w < freeBefore + 1; w++) {
      const worker = `HONEST${w}`;
      const entry = await post(
        `/crowd/start?${new URLSearchParams({ study: String(studyId), worker, sig: crowdLinkSignature(studyId, worker, SECRET) })}`,
        new URLSearchParams(),
      );
      expect(entry.status).toBe(302);
      const cookie = cookieOf(entry);
      const passed = await post(`/crowd/qualify?study=${studyId}`, rightAnswers, { cookie });
      expect(passed.status).toBe(302);
      // The pass leases the first item in its own POST and goes straight to it.
      if (passed.headers.get("location") === `/annotate/${studyId}/items/${target}`) gotTarget.push(worker);
    }
    expect(gotTarget).toHaveLength(freeBefore);
    expect(liveRows(target)).toBe(k);
  });
});

describe("finding 5: a flood of made-up Prolific entries", { timeout: 120_000 }, () => {
  const entryUrl = (i: number) =>
    `/crowd/start?${new URLSearchParams({ study: String(studyId), PROLIFIC_PID: `flood${i}`, STUDY_ID: "60aa11bb22cc33dd44ee55ff", SESSION_ID: `flood-session-${i}` })}`;

  it("GETs create no annotator, session or crowd row", async () => {
    const before = crowdRows();
    for (let i = 0; i < 50; i++) {
      const res = await fetch(server.url + entryUrl(i), { redirect: "manual" });
      expect(res.status).toBe(200);
      expect(res.headers.get("set-cookie")).toBeNull();
      expect(await res.text()).toContain('data-testid="crowd-start"');
    }
    expect(crowdRows()).toEqual(before);
  });

  it("POSTs from one network create rows up to the limit, then answer 429 with Retry-After and write nothing", async () => {
    const before = crowdRows();
    const statuses: number[] = [];
    for (let i = 100; i < 100 + ENTRIES_PER_NETWORK + 5; i++) {
      const res = await post(entryUrl(i), new URLSearchParams());
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(res.headers.get("set-cookie")).toBeNull();
        expect(await res.text()).toContain("Too many new participants have entered this study from your network");
      }
    }
    expect(statuses).toEqual([...Array(ENTRIES_PER_NETWORK).fill(302), ...Array(5).fill(429)]);
    const after = crowdRows();
    expect(after.crowdAssignments - before.crowdAssignments).toBe(ENTRIES_PER_NETWORK);
    expect(after.annotators - before.annotators).toBe(ENTRIES_PER_NETWORK);
    // A participant already in returns to their session: nothing new, so the limit does not stop them.
    expect((await post(entryUrl(100), new URLSearchParams())).status).toBe(302);
    expect(crowdRows().crowdAssignments).toBe(after.crowdAssignments);
  });
});

describe.runIf(runBrowserTests)(
  "finding 6: another site's link and <img> against a signed-in expert",
  { timeout: 120_000 },
  () => {
    let browser: Browser;
    let evil: Server;
    let evilOrigin = "";
    let expertStudy = 0;

    beforeAll(async () => {
      expertStudy = query<{ id: number }>(
        `SELECT id FROM studies WHERE pool = 'expert' AND status = 'open' ORDER BY id LIMIT 1`,
      )[0].id;
      const link = `${server.url}/crowd/start?${new URLSearchParams({ study: String(studyId), PROLIFIC_PID: "lured1", STUDY_ID: "60aa11bb22cc33dd44ee55ff", SESSION_ID: "lured-session-1" })}`;
      const page = `<!doctype html><html><body><img id="pixel" src="${server.url}/annotate/${expertStudy}/next" alt=""><a id="go" href="${link}">win a prize</a></body></html>`;
      evil = createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(page));
      await new Promise<void>((ok) => evil.listen(0, "127.0.0.1", ok));
      evilOrigin = `http://127.0.0.1:${(evil.address() as { port: number }).port}`;
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await new Promise((ok) => evil?.close(() => ok(undefined)));
    });

    it("an <img> on another port leases nothing; a cross-site link to crowd entry asks before it replaces her session", async () => {
      const page = await browser.newPage();
      await signIn(page, server.url, DEMO.ada);
      const ada = query<{ id: number }>(`SELECT id FROM annotators WHERE username = 'ada'`)[0].id;
      const leases = () => one(`SELECT count(*) AS n FROM assignments WHERE annotator_id = ?`, ada);
      // She holds no lease in the study, so the next page would lease one if a GET could.
      const writable = new Database(server.dbPath);
      try {
        writable.prepare(`DELETE FROM assignments WHERE annotator_id = ? AND status = 'leased'`).run(ada);
      } finally {
        writable.close();
      }
      const before = leases();
      const requested: string[] = [];
      page.on("requestfinished", (r) => requested.push(r.url()));
      // the browser may block the HTML answer to an <img>; the server got the GET
      page.on("requestfailed", (r) => requested.push(r.url()));
      await page.goto(`${evilOrigin}/`); // waits for the image too
      expect(requested).toContain(`${server.url}/annotate/${expertStudy}/next`);
      expect(leases()).toBe(before);

      const rowsBefore = crowdRows();
      await page.click("#go");
      await page.getByTestId("crowd-start-confirm").waitFor();
      expect(await page.getByTestId("crowd-start-confirm").textContent()).toContain("You are signed in here as");
      expect(crowdRows()).toEqual(rowsBefore);
      // Her session is intact: her expert pages still open.
      const mine = await page.goto(`${server.url}/annotate/${expertStudy}/mine`);
      expect(mine?.status()).toBe(200);
      await page.close();
    });
  },
);

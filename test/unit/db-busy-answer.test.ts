/**
 * A lock error that escaped the route wrappers still answers 503 with Retry-After, not 500:
 * entry.server's handleError notes it on the request's load context, and the server adapter
 * rewrites that request's 500.
 */
import Database from "better-sqlite3";
import { describe, expect, it, vi } from "vitest";
import { busyAnswer, noteServerError } from "../../app/server/http/write-busy-answer.server.ts";
import { DatabaseBusyError } from "../../app/server/http/write-lock.server.ts";

const request = () => new Request("http://localhost/annotate");
const serverError = () => new Response("Unexpected Server Error", { status: 500, headers: { "Content-Type": "text/html" } });

describe("busyAnswer", () => {
  it("turns the 500 of a request that hit SQLITE_BUSY into 503 with Retry-After, keeping the page", async () => {
    const context = {};
    noteServerError(new Database.SqliteError("database is locked", "SQLITE_BUSY"), { request: request(), context });
    const res = busyAnswer(serverError(), context);
    expect(res.status).toBe(503);
    expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(res.headers.get("Content-Type")).toBe("text/html");
    expect(await res.text()).toBe("Unexpected Server Error");
  });

  it("does the same for a lock wait that ran out", () => {
    const context = {};
    noteServerError(new DatabaseBusyError(), { request: request(), context });
    expect(busyAnswer(serverError(), context).status).toBe(503);
  });

  it("leaves other errors' 500s alone and logs them", () => {
    const context = {};
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    noteServerError(new TypeError("a bug"), { request: request(), context });
    expect(log).toHaveBeenCalled();
    log.mockRestore();
    expect(busyAnswer(serverError(), context).status).toBe(500);
    expect(busyAnswer(serverError(), {}).status).toBe(500);
  });
});

/**
 * Web writes and a lock held by another process (a CLI import): the web connection never waits
 * inside SQLite (busy timeout 0), so its event loop keeps running; its writes wait for the lock
 * asynchronously and then run in one transaction, or answer 503 with Retry-After past the wait.
 * Another connection on the same file stands in for the other process.
 */
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../app/server/db.server.ts";
import { ServiceError } from "../../app/server/http/errors.server.ts";
import { actionResult, orResponse, orResponseWrite } from "../../app/server/http/responses.server.ts";
import { DatabaseBusyError, withWriteLock } from "../../app/server/http/write-lock.server.ts";
import { findAnnotatorByUsername, insertAnnotator } from "../../app/server/models/annotator.server.ts";
import { transact } from "../../app/server/db-transaction.server.ts";
import { tempDb } from "../../harness/temp-db.ts";

let t: Awaited<ReturnType<typeof tempDb>>;
let web: Db;
let other: Database.Database;

beforeEach(async () => {
  t = await tempDb();
  web = t.db;
  web.$client.pragma("busy_timeout = 0"); // as getDb() sets it for the web server
  other = new Database(t.path);
});

afterEach(() => {
  if (other.inTransaction) other.exec("ROLLBACK");
  other.close();
  t.cleanup();
});

const addExpert = async (username: string, db: Db = web) =>
  await insertAnnotator(db, { username, displayName: username, role: "expert" });
const exists = async (username: string) => (await findAnnotatorByUsername(web, username)) !== undefined;

describe("withWriteLock", () => {
  it("waits for another process's write lock without blocking the event loop, then writes", async () => {
    other.exec("BEGIN IMMEDIATE");
    const events: string[] = [];
    const write = withWriteLock(web, async (tx) => {
      events.push("write");
      return await addExpert("waited", tx);
    });
    // These timers can only fire while the write is waiting if the wait does not block.
    await new Promise((ok) => setTimeout(ok, 30));
    events.push("timer while locked");
    other.exec("COMMIT");
    const id = await write;
    expect(events).toEqual(["timer while locked", "write"]);
    expect((await findAnnotatorByUsername(web, "waited"))?.id).toBe(id);
  });

  it("gives up after the wait with DatabaseBusyError and changes nothing", async () => {
    other.exec("BEGIN IMMEDIATE");
    let ran = false;
    await expect(
      withWriteLock(web, async (tx) => ((ran = true), await addExpert("never", tx)), { maxWaitMs: 40 }),
    ).rejects.toBeInstanceOf(DatabaseBusyError);
    other.exec("COMMIT");
    expect(ran).toBe(false);
    expect(await exists("never")).toBe(false);
    expect(web.$client.inTransaction).toBe(false);
  });

  it("runs the service's own transaction as a savepoint inside the held lock", async () => {
    await withWriteLock(web, async (tx) => {
      await addExpert("outer", tx);
      await expect(
        transact(tx, async (inner) => (await addExpert("inner", inner), await addExpert("inner", inner))),
      ).rejects.toThrow(/UNIQUE/);
      await transact(tx, async (inner) => await addExpert("inner-ok", inner));
    });
    expect([await exists("outer"), await exists("inner"), await exists("inner-ok")]).toEqual([true, false, true]);
    expect(web.$client.inTransaction).toBe(false);
  });

  it("keeps what was written before a service refusal (as without the lock), rolls back a crash", async () => {
    const writeThenThrow = (username: string, err: Error) => async (tx: Db) => {
      await addExpert(username, tx);
      throw err;
    };
    await expect(withWriteLock(web, writeThenThrow("refused", new ServiceError(409, "no")))).rejects.toThrow("no");
    await expect(withWriteLock(web, writeThenThrow("crashed", new TypeError("bug")))).rejects.toThrow("bug");
    expect([await exists("refused"), await exists("crashed")]).toEqual([true, false]);
  });

  it("joins a write already under way when called with its handle", async () => {
    await withWriteLock(web, async (tx) => {
      await withWriteLock(tx, async (inner) => await addExpert("nested", inner));
      expect(other.prepare("SELECT 1 FROM annotators WHERE username = 'nested'").get()).toBeUndefined();
    });
    expect(await exists("nested")).toBe(true);
  });
});

describe("routes on a locked database", () => {
  it("an action waits past a short lock and stores its write", async () => {
    other.exec("BEGIN IMMEDIATE");
    setTimeout(() => other.exec("COMMIT"), 30);
    const res = await actionResult(async (tx) => await addExpert("after-wait", tx), { db: web });
    expect(res).toBeTypeOf("number");
    expect(await exists("after-wait")).toBe(true);
  });

  it("an action answers 503 with Retry-After, not 500, when the lock stays taken", async () => {
    process.env.SOCRATES_WRITE_WAIT_MS = "40";
    try {
      other.exec("BEGIN IMMEDIATE");
      const res = (await actionResult(async (tx) => await addExpert("blocked", tx), { db: web })) as Response;
      expect(res.status).toBe(503);
      expect(res.headers.get("Retry-After")).toMatch(/^\d+$/);
      expect(await res.json()).toMatchObject({ ok: false, message: expect.stringMatching(/busy/) });
    } finally {
      delete process.env.SOCRATES_WRITE_WAIT_MS;
    }
    other.exec("COMMIT");
    expect(await exists("blocked")).toBe(false);
  });

  it("a writing loader throws a 503 response when the lock stays taken", async () => {
    process.env.SOCRATES_WRITE_WAIT_MS = "40";
    try {
      other.exec("BEGIN IMMEDIATE");
      const thrown = await orResponseWrite(async (tx) => await addExpert("blocked", tx), { db: web }).catch(
        (e: unknown) => e,
      );
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).status).toBe(503);
      expect((thrown as Response).headers.get("Retry-After")).toMatch(/^\d+$/);
    } finally {
      delete process.env.SOCRATES_WRITE_WAIT_MS;
    }
  });

  it("a stray write outside the lock fails at once (no busy wait) and orResponse answers 503, not 500", async () => {
    other.exec("BEGIN IMMEDIATE");
    const thrown = await orResponse(async () => await addExpert("stray")).catch((err: unknown) => err);
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).status).toBe(503);
  });
});

describe("a connection's own busy timeout", () => {
  it("is set aside while a transaction waits for the lock (the wait never blocks) and is back afterwards", async () => {
    web.$client.pragma("busy_timeout = 5000"); // as a CLI command's connection has it (db.server.ts)
    other.exec("BEGIN IMMEDIATE");
    const events: string[] = [];
    const write = transact(web, async (tx) => {
      events.push("write");
      await addExpert("patient", tx);
    });
    await new Promise((ok) => setTimeout(ok, 30));
    events.push("timer while locked");
    other.exec("COMMIT");
    await write;
    expect(events).toEqual(["timer while locked", "write"]);
    expect(web.$client.pragma("busy_timeout", { simple: true })).toBe(5000);
    // The web server's connection (none) keeps none.
    web.$client.pragma("busy_timeout = 0");
    await transact(web, async (tx) => void (await addExpert("quick", tx)));
    expect(web.$client.pragma("busy_timeout", { simple: true })).toBe(0);
  });
});

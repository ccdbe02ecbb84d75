/**
 * The signed-in read every request makes (session-store.server.ts readSignedIn): one query for the
 * session and its annotator, on a real SQLite file, answering as getSession followed by the
 * annotator's row did — nothing for a forged or ended session, the annotator as stored now.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { databaseSessionStorage } from "../../app/server/auth/session-store.server.ts";
import type { Db } from "../../app/server/db.server.ts";
import { findAnnotator, updateAnnotator } from "../../app/server/models/annotator.server.ts";
import { addAnnotator } from "../../harness/annotation.ts";
import { tempDb } from "../../harness/temp-db.ts";

const SECRET = "a-test-secret-of-enough-length-0123456789";

let t: Awaited<ReturnType<typeof tempDb>>;
let db: Db;
beforeEach(async () => {
  t = await tempDb();
  db = t.db;
});
afterEach(() => t.cleanup());

/** Signs `annotatorId` in as startSession does and returns the Cookie header a browser would send back. */
async function signIn(store: ReturnType<typeof databaseSessionStorage>, annotatorId: number, crowdStudies: number[]) {
  const session = await store.getSession();
  session.set("annotatorId", annotatorId);
  session.set("crowdStudies", crowdStudies);
  const setCookie = await store.commitSession(session);
  return setCookie.split(";")[0];
}

describe("readSignedIn", () => {
  it("gives the session's data and the annotator's row, as getSession and then the row by id do", async () => {
    const store = databaseSessionStorage(async () => db, SECRET);
    const id = await addAnnotator(db, "worker-1", "crowd");
    const cookie = await signIn(store, id, [4, 7]);
    const signedIn = await store.readSignedIn(cookie);
    expect(signedIn?.annotator).toEqual(await findAnnotator(db, id));
    expect(signedIn?.data).toEqual({ crowdStudies: [4, 7] });
    const session = await store.getSession(cookie);
    expect(session.get("annotatorId")).toBe(id);
    expect(session.get("crowdStudies")).toEqual([4, 7]);
  });

  it("reads the annotator as stored now (a deactivation shows at once)", async () => {
    const store = databaseSessionStorage(async () => db, SECRET);
    const id = await addAnnotator(db, "expert-1", "expert");
    const cookie = await signIn(store, id, []);
    expect((await store.readSignedIn(cookie))?.annotator.active).toBe(true);
    await updateAnnotator(db, id, { active: false });
    expect((await store.readSignedIn(cookie))?.annotator.active).toBe(false);
  });

  it("answers null without a cookie, for a forged or foreign cookie and once the session has ended", async () => {
    const store = databaseSessionStorage(async () => db, SECRET);
    const id = await addAnnotator(db, "expert-2", "expert");
    const cookie = await signIn(store, id, []);
    expect(await store.readSignedIn(null)).toBeNull();
    expect(await store.readSignedIn("other=1")).toBeNull();
    const [name, value] = cookie.split("=");
    expect(await store.readSignedIn(`${name}=${value.slice(0, -3)}abc`)).toBeNull();
    const elsewhere = databaseSessionStorage(async () => db, "another-secret-of-enough-length-987654321");
    expect(await elsewhere.readSignedIn(cookie)).toBeNull();
    await store.destroySession(await store.getSession(cookie));
    expect(await store.readSignedIn(cookie)).toBeNull();
  });
});

/**
 * Server-side session storage: the cookie carries only a random id (256 bits, signed as well);
 * the `sessions` table keeps its sha256, the annotator and the session data. Deleting a row ends
 * the session at once (logout, password change, deactivation); a stolen copy of the database
 * holds no usable session id. Expired rows are purged whenever a session is created.
 */
import { createCookie, createSessionStorage, type SessionStorage } from "@remix-run/node";
import { createHash, randomBytes } from "node:crypto";
import type { Db } from "../db.server.ts";
import { withWriteLock } from "../http/write-lock.server.ts";
import {
  deleteSession,
  findLiveSession,
  findLiveSessionAnnotator,
  insertSession,
  purgeExpiredSessions,
  updateSession,
} from "../models/session.server.ts";

export interface SessionData {
  annotatorId: number;
  crowdStudies: number[];
}

export const SESSION_MAX_AGE_SECONDS = 60 * 60 * 12;

export const sessionIdHash = (id: string) => createHash("sha256").update(id).digest("hex");

const expiryOf = (expires: Date | undefined) =>
  (expires ?? new Date(Date.now() + SESSION_MAX_AGE_SECONDS * 1000)).toISOString();

/** The session's data without the annotator id, which has its own column. */
function rowData(data: Partial<SessionData>): Record<string, unknown> {
  const { annotatorId: _id, ...rest } = data;
  return rest;
}

/** A signed-in request's session data and annotator row (findLiveSessionAnnotator). */
export type SignedIn = NonNullable<Awaited<ReturnType<typeof findLiveSessionAnnotator>>>;

export interface DatabaseSessionStorage extends SessionStorage<SessionData> {
  /**
   * What `getSession` and then the annotator's row by id would give, in one read: the same cookie check (signature),
   * the same live-session lookup, joined with the annotator. Null without a valid cookie or a live session.
   */
  readSignedIn(cookieHeader: string | null): Promise<SignedIn | null>;
}

export function databaseSessionStorage(db: () => Promise<Db>, secret: string): DatabaseSessionStorage {
  const cookie = createCookie("socrates_session", {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    // Behind TLS set SESSION_COOKIE_SECURE=1; plain-http localhost would otherwise drop the cookie.
    secure: process.env.SESSION_COOKIE_SECURE === "1",
    secrets: [secret],
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
  const storage = createSessionStorage<SessionData>({
    cookie,
    async createData(data, expires) {
      const annotatorId = data.annotatorId;
      if (typeof annotatorId !== "number") throw new Error("a session is only stored for a signed-in annotator");
      const id = randomBytes(32).toString("base64url");
      await withWriteLock(await db(), async (tx) => {
        await purgeExpiredSessions(tx, new Date().toISOString());
        await insertSession(tx, {
          idHash: sessionIdHash(id),
          annotatorId,
          data: rowData(data),
          expiresAt: expiryOf(expires),
        });
      });
      return id;
    },
    async readData(id) {
      const row = await findLiveSession(await db(), sessionIdHash(id), new Date().toISOString());
      return row ? ({ ...row.data, annotatorId: row.annotatorId } as SessionData) : null;
    },
    async updateData(id, data, expires) {
      await withWriteLock(
        await db(),
        async (tx) => await updateSession(tx, sessionIdHash(id), { data: rowData(data), expiresAt: expiryOf(expires) }),
      );
    },
    async deleteData(id) {
      await withWriteLock(await db(), async (tx) => await deleteSession(tx, sessionIdHash(id)));
    },
  });
  return Object.assign(storage, {
    async readSignedIn(cookieHeader: string | null) {
      const id: unknown = cookieHeader ? await cookie.parse(cookieHeader) : null;
      if (typeof id !== "string" || id === "") return null;
      return (await findLiveSessionAnnotator(await db(), sessionIdHash(id), new Date().toISOString())) ?? null;
    },
  });
}

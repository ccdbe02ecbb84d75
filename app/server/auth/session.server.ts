/**
 * Login sessions, kept server-side (session-store.server.ts): the httpOnly, SameSite=Lax cookie
 * holds a random id, the database the rest. Every loader and action asks `requireUser` for the
 * roles it allows; ownership checks follow in the annotation services.
 */
import { redirect } from "@remix-run/node";
import { getDb } from "../db.server.ts";
import type { AnnotatorRow } from "../models/annotator.server.ts";
import { appSecret } from "./secret.server.ts";
import { databaseSessionStorage } from "./session-store.server.ts";

export type Role = "admin" | "expert" | "crowd";
export type SessionUser = Pick<
  AnnotatorRow,
  "id" | "username" | "displayName" | "role" | "channel" | "externalId" | "qualifiedAt"
> & {
  role: Role;
  /** Crowd workers: the studies they entered through a link in this session (the only ones they may work on). */
  crowdStudies: number[];
};

let storage: ReturnType<typeof databaseSessionStorage> | undefined;

function sessionStorage() {
  storage ??= databaseSessionStorage(getDb, appSecret());
  return storage;
}

/**
 * The signed-in user, or null. A GET runs the root loader and the page's loader on one Request
 * and changes no session, so its answer is read once per request; any other method (an action,
 * which may end sessions) reads it afresh on every call.
 */
export function currentUser(request: Request): Promise<SessionUser | null> {
  if (request.method !== "GET") return readCurrentUser(request);
  let user = usersOfGets.get(request);
  if (!user) usersOfGets.set(request, (user = readCurrentUser(request)));
  return user;
}

const usersOfGets = new WeakMap<Request, Promise<SessionUser | null>>();

async function readCurrentUser(request: Request): Promise<SessionUser | null> {
  // The session and its annotator in one read (session-store.server.ts).
  const signedIn = await sessionStorage().readSignedIn(request.headers.get("Cookie"));
  const row = signedIn?.annotator;
  if (!row?.active) return null;
  const crowdStudies = signedIn?.data.crowdStudies;
  const { id, username, displayName, role, channel, externalId, qualifiedAt } = row;
  return {
    id,
    username,
    displayName,
    role: role as Role,
    channel,
    externalId,
    qualifiedAt,
    crowdStudies: Array.isArray(crowdStudies) ? crowdStudies : [],
  };
}

/** The signed-in user with one of `roles`; otherwise a redirect to log in (anonymous) or 403 (wrong role). */
export async function requireUser(request: Request, roles: readonly Role[]): Promise<SessionUser> {
  const user = await currentUser(request);
  if (!user) {
    const url = new URL(request.url);
    throw redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`);
  }
  if (!roles.includes(user.role)) {
    throw new Response(`Your account (${user.role}) may not open this page.`, { status: 403, statusText: "Forbidden" });
  }
  return user;
}

/**
 * Signs `annotatorId` in and redirects to `to`. The session id is always new (an id planted
 * before login is never promoted); the same worker keeps the crowd studies of the old session.
 */
export async function startSession(
  request: Request,
  annotatorId: number,
  to: string,
  options: { crowdStudy?: number } = {},
): Promise<Response> {
  const store = sessionStorage();
  const old = await store.getSession(request.headers.get("Cookie"));
  const previous = old.get("annotatorId") === annotatorId ? (old.get("crowdStudies") ?? []) : [];
  if (old.id) await store.destroySession(old);
  const session = await store.getSession();
  session.set("annotatorId", annotatorId);
  session.set(
    "crowdStudies",
    options.crowdStudy === undefined ? previous : [...new Set([...previous, options.crowdStudy])],
  );
  return redirect(to, { headers: { "Set-Cookie": await store.commitSession(session) } });
}

/** Logs out: deletes the session's row (the cookie alone no longer opens anything) and clears the cookie. */
export async function endSession(request: Request): Promise<Response> {
  const store = sessionStorage();
  const session = await store.getSession(request.headers.get("Cookie"));
  return redirect("/login", { headers: { "Set-Cookie": await store.destroySession(session) } });
}

/**
 * Where to go after login: `next` only when it resolves, against this app's own origin, to a
 * path of that origin (browsers treat "\\", tabs and newlines leniently, so a string check is
 * not enough); otherwise `fallback`. Returns path, query and fragment.
 */
export function safeNext(next: string | null, fallback: string, ownOrigin: string): string {
  if (!next) return fallback;
  let url: URL;
  try {
    url = new URL(next, ownOrigin);
  } catch {
    return fallback;
  }
  const target = url.pathname + url.search + url.hash;
  // "/.//evil" normalises to the path "//evil", which a Location header would read as another host.
  if (url.origin !== new URL(ownOrigin).origin || !target.startsWith("/") || target.startsWith("//")) return fallback;
  return target;
}

/** Where each role lands after logging in. */
export const homeFor = (role: string) => (role === "admin" ? "/admin/studies" : "/annotate");

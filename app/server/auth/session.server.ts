/**
 * Sessions in a signed, httpOnly, SameSite=Lax cookie holding only the annotator id. Every
 * loader and action asks `requireUser` for the roles it allows; ownership checks follow in the
 * annotation services.
 */
import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { getDb } from "../db.server.ts";
import { findAnnotator, type AnnotatorRow } from "../models/annotator.server.ts";
import { appSecret } from "./secret.server.ts";

export type Role = "admin" | "expert" | "crowd";
export type SessionUser = Pick<AnnotatorRow, "id" | "username" | "displayName" | "role" | "channel" | "externalId" | "qualifiedAt"> & {
  role: Role;
  /** Crowd workers: the studies they entered through a link in this session (the only ones they may work on). */
  crowdStudies: number[];
};

interface SessionData {
  annotatorId: number;
  crowdStudies: number[];
}

let storage: ReturnType<typeof createCookieSessionStorage<SessionData>> | undefined;

function sessionStorage() {
  storage ??= createCookieSessionStorage<SessionData>({
    cookie: {
      name: "socrates_session",
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      // Behind TLS set SESSION_COOKIE_SECURE=1; plain-http localhost would otherwise drop the cookie.
      secure: process.env.SESSION_COOKIE_SECURE === "1",
      secrets: [appSecret()],
      maxAge: 60 * 60 * 12,
    },
  });
  return storage;
}

export async function currentUser(request: Request): Promise<SessionUser | null> {
  const session = await sessionStorage().getSession(request.headers.get("Cookie"));
  const id = session.get("annotatorId");
  if (typeof id !== "number") return null;
  const crowdStudies = session.get("crowdStudies");
  const row = findAnnotator(getDb(), id);
  if (!row || !row.active) return null;
  const { username, displayName, role, channel, externalId, qualifiedAt } = row;
  return { id, username, displayName, role: role as Role, channel, externalId, qualifiedAt, crowdStudies: Array.isArray(crowdStudies) ? crowdStudies : [] };
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

export async function startSession(request: Request, annotatorId: number, to: string, options: { crowdStudy?: number } = {}): Promise<Response> {
  const store = sessionStorage();
  const session = await store.getSession(request.headers.get("Cookie"));
  // A different person on this browser starts from scratch; the same worker keeps earlier studies.
  const previous = session.get("annotatorId") === annotatorId ? (session.get("crowdStudies") ?? []) : [];
  session.set("annotatorId", annotatorId);
  session.set("crowdStudies", options.crowdStudy === undefined ? previous : [...new Set([...previous, options.crowdStudy])]);
  return redirect(to, { headers: { "Set-Cookie": await store.commitSession(session) } });
}

export async function endSession(request: Request): Promise<Response> {
  const store = sessionStorage();
  const session = await store.getSession(request.headers.get("Cookie"));
  return redirect("/login", { headers: { "Set-Cookie": await store.destroySession(session) } });
}

/** Only same-site relative paths are followed after login, never another origin. */
export function safeNext(next: string | null, fallback: string): string {
  return next && next.startsWith("/") && !next.startsWith("//") ? next : fallback;
}

/** Where each role lands after logging in. */
export const homeFor = (role: string) => (role === "admin" ? "/admin/studies" : "/annotate");

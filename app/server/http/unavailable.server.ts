/**
 * When the web server cannot save for a while, through no fault of the request: the database's
 * write lock is held past the wait (a large CLI import) or the disk is full. Both change nothing
 * and pass without a restart, so both answer 503 with Retry-After and words the user can act on,
 * never a 500. The route wrappers (responses.server.ts) answer them; whatever escapes them is
 * caught at the last line: entry.server's `handleError` notes the reason for the request, and the
 * server adapter (remix-handler.server.ts) runs each request through `answerUnavailable`.
 *
 * Remix passes a route's response headers to the page only through that route's own `headers`
 * export, so a Retry-After set by a wrapper would be lost on most routes; noting the reason for
 * the request lets the adapter set it on the final response instead.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { isStorageFull } from "../storage-full.server.ts";
import { DatabaseBusyError, isDatabaseBusy, RETRY_AFTER_SECONDS } from "./write-lock.server.ts";

export interface Unavailable {
  kind: "busy" | "full";
  message: string;
  retryAfterSeconds: number;
}

/** A full disk waits for someone to free space: ask clients to come back later than for a lock. */
export const FULL_RETRY_AFTER_SECONDS = 60;

const BUSY: Unavailable = {
  kind: "busy",
  message: new DatabaseBusyError().message,
  retryAfterSeconds: RETRY_AFTER_SECONDS,
};
const FULL: Unavailable = {
  kind: "full",
  message:
    "The service is temporarily unable to save: the server's storage is full. Nothing was saved; please try again in a few minutes.",
  retryAfterSeconds: FULL_RETRY_AFTER_SECONDS,
};

/** Why `err` means "cannot save right now" (busy or full), or null for any other error. */
export function unavailableReason(err: unknown): Unavailable | null {
  if (isDatabaseBusy(err)) return BUSY;
  if (isStorageFull(err)) return FULL;
  return null;
}

/**
 * One store per process, kept on globalThis: the routes' copy of this module lives in the Remix
 * server build, the adapter's (scripts/serve.ts) is loaded from source, and a note written through
 * one copy must be read through the other.
 */
type Notes = AsyncLocalStorage<{ reason: Unavailable | null }>;
const NOTES_KEY = Symbol.for("socrates.unavailable-notes");
const shared = globalThis as unknown as Record<symbol, Notes | undefined>;
const requestNotes: Notes = (shared[NOTES_KEY] ??= new AsyncLocalStorage());

/** How often a full disk is written to the server's log (every refused write would flood it). */
const FULL_LOG_EVERY_MS = 60_000;
let lastFullLog = -Infinity;

/** Records, for the request being answered, that it could not save and why (a no-op outside a request). */
export function noteUnavailable(reason: Unavailable): void {
  const note = requestNotes.getStore();
  if (note) note.reason = reason;
  // A lock wait passes by itself; a full disk needs the operator, who reads the log.
  if (reason.kind === "full" && performance.now() - lastFullLog >= FULL_LOG_EVERY_MS) {
    lastFullLog = performance.now();
    console.error(
      "The database or its disk is full: writes answer 503 until space is freed on the file system holding the database.",
    );
  }
}

/** The headers of a 503 answer for `reason`. */
export function unavailableHeaders(reason: Unavailable): Record<string, string> {
  return { "Retry-After": String(reason.retryAfterSeconds) };
}

/** For entry.server's `handleError`: notes a busy or full database; logs any other error (as Remix's default does). */
export function noteServerError(error: unknown, { request }: { request: Request }): void {
  const reason = unavailableReason(error);
  if (reason) return noteUnavailable(reason);
  if (!request.signal.aborted) console.error(error);
}

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * A page of its own for a document request whose error escaped the routes (Remix's page would say "Something went
 * wrong").
 */
function unavailablePage(reason: Unavailable): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Temporarily unable to save · SoCRATES Studio</title></head>
<body><main><h1>Temporarily unable to save</h1><p>${escapeHtml(reason.message)}</p><p><a href="/">Back to the start page</a></p></main></body></html>
`;
}

/** A Remix single-fetch request (`/path.data`) rather than a document. */
const isDataRequest = (request: Request) => new URL(request.url).pathname.endsWith(".data");

/**
 * Runs `handle` (Remix's request handler) and, when the request could not save, makes its 5xx
 * answer a 503 with Retry-After. A 500 from an error that escaped the routes also gets a page
 * saying so, for documents; a `.data` answer keeps Remix's encoding, which the browser's Remix
 * reads, with the new status.
 */
export async function answerUnavailable(request: Request, handle: () => Promise<Response>): Promise<Response> {
  const note: { reason: Unavailable | null } = { reason: null };
  const response = await requestNotes.run(note, handle);
  const reason = note.reason;
  if (!reason || response.status < 500) return response;
  const headers = new Headers(response.headers);
  headers.set("Retry-After", String(reason.retryAfterSeconds));
  if (response.status !== 503 && !isDataRequest(request)) {
    await response.body?.cancel();
    headers.set("Content-Type", "text/html; charset=utf-8");
    headers.delete("Content-Length");
    return new Response(unavailablePage(reason), { status: 503, statusText: "Service Unavailable", headers });
  }
  return new Response(response.body, { status: 503, statusText: "Service Unavailable", headers });
}

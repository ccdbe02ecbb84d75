/**
 * The last line for a busy database: a lock error that escaped the routes' wrappers
 * (`actionResult`, `orResponse`, `orResponseWrite` already answer 503) would reach Remix as an
 * unexpected error and answer 500. Remix reports such errors to entry.server's `handleError`
 * with the request's load context; `noteServerError` marks that context, and the server adapter
 * passes its response through `busyAnswer`, which turns the 500 into a 503 with Retry-After.
 */
import { isDatabaseBusy, RETRY_AFTER_SECONDS } from "./write-lock.server.ts";

const busyContexts = new WeakSet<object>();

/** For entry.server's `handleError`: remembers a busy database; logs any other error (as Remix's default does). */
export function noteServerError(error: unknown, { request, context }: { request: Request; context: object }): void {
  if (isDatabaseBusy(error)) {
    busyContexts.add(context);
    return;
  }
  if (!request.signal.aborted) console.error(error);
}

/** For the server adapter: a 5xx answer to a request that failed on a busy database, as 503 with Retry-After. */
export function busyAnswer(response: Response, context: object): Response {
  if (!busyContexts.has(context) || response.status < 500) return response;
  const headers = new Headers(response.headers);
  headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  return new Response(response.body, { status: 503, statusText: "Service Unavailable", headers });
}

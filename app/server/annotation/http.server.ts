/** Turns annotation-service errors into HTTP responses, so every route reports them the same way. */
import { json } from "@remix-run/node";
import { AnnotationError } from "./errors.server.ts";

/** For loaders: rethrows service errors as responses the error boundary shows (403, 404, …). */
export function orResponse<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof AnnotationError) throw new Response(err.message, { status: err.status, statusText: err.status === 403 ? "Forbidden" : err.status === 404 ? "Not Found" : "Bad Request" });
    throw err;
  }
}

export interface ActionFailure {
  ok: false;
  message: string;
  problems: { path: string; message: string }[];
}

/** For actions: service errors become a JSON body with the message and field problems, with their status. */
export async function actionResult<T>(fn: () => T | Promise<T>) {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AnnotationError) {
      return json<ActionFailure>({ ok: false, message: err.message, problems: err.problems }, { status: err.status });
    }
    throw err;
  }
}

/** Turns service errors into HTTP responses, so every route reports them the same way. */
import { json } from "@remix-run/node";
import { ServiceError } from "./errors.server.ts";

const STATUS_TEXT: Record<ServiceError["status"], string> = { 400: "Bad Request", 403: "Forbidden", 404: "Not Found", 409: "Conflict" };

/** For loaders: rethrows service errors as responses the error boundary shows (403, 404, …). */
export function orResponse<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ServiceError) throw new Response(err.message, { status: err.status, statusText: STATUS_TEXT[err.status] });
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
    if (err instanceof ServiceError) {
      return json<ActionFailure>({ ok: false, message: err.message, problems: err.problems }, { status: err.status });
    }
    throw err;
  }
}

/** A form field holding JSON: the parsed value, or undefined when it is not JSON (the action reports it). */
export function formJson(form: FormData, name: string): unknown {
  try {
    return JSON.parse(String(form.get(name) ?? "null"));
  } catch {
    return undefined;
  }
}

/** The `secondsOnTask` field: null when absent or empty (the label store checks the range). */
export function formSeconds(form: FormData): number | null {
  const value = form.get("secondsOnTask");
  return value === null || value === "" ? null : Number(value);
}

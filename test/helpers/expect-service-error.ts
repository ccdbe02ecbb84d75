/**
 * An assertion for service errors; kept apart from the fixtures because it needs vitest, which worker processes cannot
 * load.
 */
import { expect } from "vitest";
import { ServiceError } from "../../app/server/http/errors.server.ts";

/**
 * Runs `fn` and checks it throws an ServiceError with this status, a message (or field
 * problem) matching `message`, and, given `path`, a problem at that field. Returns the error.
 */
export async function expectServiceError(
  fn: () => unknown,
  status: number,
  message: RegExp,
  path?: string,
): Promise<ServiceError> {
  try {
    await fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ServiceError);
    const e = err as ServiceError;
    expect(e.status).toBe(status);
    expect([e.message, ...e.problems.map((p) => `${p.path}: ${p.message}`)].join("\n")).toMatch(message);
    if (path) expect(e.problems.map((p) => p.path)).toContain(path);
    return e;
  }
  throw new Error("expected an ServiceError");
}

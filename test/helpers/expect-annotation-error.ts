/** An assertion for service errors; kept apart from the fixtures because it needs vitest, which worker processes cannot load. */
import { expect } from "vitest";
import { AnnotationError } from "../../app/server/annotation/errors.server.ts";

/**
 * Runs `fn` and checks it throws an AnnotationError with this status, a message (or field
 * problem) matching `message`, and, given `path`, a problem at that field. Returns the error.
 */
export function expectAnnotationError(fn: () => unknown, status: number, message: RegExp, path?: string): AnnotationError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AnnotationError);
    const e = err as AnnotationError;
    expect(e.status).toBe(status);
    expect([e.message, ...e.problems.map((p) => `${p.path}: ${p.message}`)].join("\n")).toMatch(message);
    if (path) expect(e.problems.map((p) => p.path)).toContain(path);
    return e;
  }
  throw new Error("expected an AnnotationError");
}

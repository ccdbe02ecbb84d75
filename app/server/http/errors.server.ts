import type { ZodError } from "zod";

/** Errors the services raise (annotation, crowd, admin); routes turn them into responses with the same status. */
export class ServiceError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    message: string,
    /** Field-level problems (path → message) for forms. */
    readonly problems: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

export const notFound = (what: string) => new ServiceError(404, `${what} does not exist`);
export const forbidden = (message: string) => new ServiceError(403, message);
export const badInput = (message: string, problems: { path: string; message: string }[] = []) =>
  new ServiceError(400, message, problems);

export type FieldProblem = { path: string; message: string };

/** A zod error's issues as field problems: dotted paths, `root` where the issue is about the whole value. */
export function zodProblems(error: ZodError, root = ""): FieldProblem[] {
  return error.issues.map((i) => ({ path: i.path.join(".") || root, message: i.message }));
}

/** Errors the annotation services raise; routes turn them into responses with the same status. */
export class AnnotationError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409,
    message: string,
    /** Field-level problems (path → message) for forms. */
    readonly problems: { path: string; message: string }[] = [],
  ) {
    super(message);
    this.name = "AnnotationError";
  }
}

export const notFound = (what: string) => new AnnotationError(404, `${what} does not exist`);
export const forbidden = (message: string) => new AnnotationError(403, message);
export const badInput = (message: string, problems: { path: string; message: string }[] = []) => new AnnotationError(400, message, problems);

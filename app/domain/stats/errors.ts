/**
 * Thrown when the statistics functions are given data they cannot use (ragged rows,
 * non-finite numbers, strings at a numeric level, ...). Callers such as the CLI turn it into
 * a user-facing error; any other exception is a bug.
 */
export class StatsInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StatsInputError";
  }
}

/** Shared helpers for CLI commands: user-facing errors, JSON output, file reading. */
import { readFileSync } from "node:fs";

/** An error caused by the user's input. The CLI prints its message and exits with code 2. */
export class UserError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UserError";
  }
}

export const EXIT_BAD_INPUT = 2;

export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + "\n");
}

/** Reads and parses a JSON file, naming the file in any error. */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw new UserError(`${path}: cannot read file (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UserError(`${path}: invalid JSON: ${(err as Error).message}`);
  }
}

/** Parses a CLI integer option, rejecting anything that is not a whole number in range. */
export function parseIntOption(name: string, raw: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UserError(`--${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return n;
}

/** Shared helpers for CLI commands: user-facing errors, JSON output, file reading. */
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { decodeUtf8 } from "../app/domain/bundle-input.ts";
import { DEFAULT_TURN_BUDGET } from "../app/domain/simulation/schedule.ts";

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

/** Reads a UTF-8 text file strictly: bytes that are not UTF-8 are an error naming where, never replaced by U+FFFD. */
export function readTextFile(path: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw new UserError(`${path}: cannot read file (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
  const decoded = decodeUtf8(bytes);
  if ("failure" in decoded) throw new UserError(`${path}: ${decoded.failure.message}`);
  return decoded.text;
}

/** Reads and parses a JSON file, naming the file in any error. */
export function readJsonFile(path: string): unknown {
  const text = readTextFile(path);
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

type ErrorClass = abstract new (...args: never[]) => Error;

/** Runs a step of a command, turning the errors its input can cause into UserErrors. */
export interface UserErrorGuard {
  <T>(fn: () => T): T;
  async<T>(fn: () => Promise<T>): Promise<T>;
}

/**
 * A guard for one command: errors of the listed classes (bad input, bad configuration) exit with code 2 and their
 * message.
 */
export function guardUserErrors(...inputErrors: ErrorClass[]): UserErrorGuard {
  const translate = (err: unknown): never => {
    if (inputErrors.some((E) => err instanceof E)) throw new UserError((err as Error).message);
    throw err;
  };
  const guard = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (err) {
      return translate(err);
    }
  };
  return Object.assign(guard, { async: <T>(fn: () => Promise<T>): Promise<T> => fn().catch(translate) });
}

/** The options every simulating command shares: the turn budget, how many runs at once, the LLM configuration. */
export function withSimulationOptions(command: Command): Command {
  return command
    .option("--budget <n>", "party-turn budget per run", String(DEFAULT_TURN_BUDGET))
    .option("--concurrency <n>", "runs simulated at once (requests per endpoint are limited by the configuration)", "4")
    .option("--config <path>", "LLM configuration (default: SOCRATES_CONFIG or ./socrates.config.json)");
}

/**
 * Ctrl-C as a stop request: while held, SIGINT aborts `controller` instead of killing the
 * process, so a long command stops starting calls and stores nothing half done. Call `release()`
 * when the work is over (in a `finally`).
 */
export function interruptible(): { controller: AbortController; release: () => void } {
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once("SIGINT", onSigint);
  return { controller, release: () => void process.off("SIGINT", onSigint) };
}

/** The one line a command prints when Ctrl-C stopped it (work in flight is dropped, never counted as failed). */
export function interruptedLine(done: number, droppedInFlight: number): string {
  return `interrupted: finishing nothing new; ${done} done, ${droppedInFlight} in flight dropped`;
}

/** Ctrl-C's exit code, as a shell reports a process ended by SIGINT (128 + 2). */
export const EXIT_INTERRUPTED = 130;

/**
 * A `socrates` command run in the test's own process: the `main` the bin calls (scripts/cli.ts),
 * with the given environment, its output captured and its exit code read back. For tests where the
 * process boundary is not what is checked: on a loaded machine a child process costs seconds of
 * start-up per command. Kills, signals and several processes at once keep spawnCli/runCli
 * (test/helpers/cli.ts). One command at a time: it swaps process.env, the output and the exit code.
 */
import { format } from "node:util";
import { main } from "../../scripts/cli.ts";
import type { CliResult } from "./cli.ts";

let running = false;

type Write = typeof process.stdout.write;

/** A stream.write stand-in appending to `sink` (and calling a write callback, as a stream would). */
function capture(sink: (text: string) => void): Write {
  return ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    sink(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
    done?.();
    return true;
  }) as Write;
}

/** Sets `env` on process.env; returns what puts the previous values back. */
function setEnv(env: Record<string, string>): () => void {
  const previous = Object.keys(env).map((k) => [k, process.env[k]] as const);
  Object.assign(process.env, env);
  return () => {
    for (const [k, v] of previous) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

export async function runCliInProcess(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  if (running) throw new Error("runCliInProcess runs one command at a time");
  running = true;
  let stdout = "";
  let stderr = "";
  const toOut = (text: string) => void (stdout += text);
  const toErr = (text: string) => void (stderr += text);
  const saved = { log: console.log, info: console.info, error: console.error, warn: console.warn };
  const streams = { out: process.stdout.write, err: process.stderr.write, tty: process.stderr.isTTY };
  const savedExitCode = process.exitCode;
  const restoreEnv = setEnv(env);
  process.stdout.write = capture(toOut);
  process.stderr.write = capture(toErr);
  // As in a child whose output is piped: no progress bar redrawn in place.
  process.stderr.isTTY = false;
  console.log = console.info = (...a: unknown[]) => toOut(`${format(...a)}\n`);
  console.error = console.warn = (...a: unknown[]) => toErr(`${format(...a)}\n`);
  process.exitCode = undefined;
  try {
    await main(["node", "socrates", ...args]);
    return { status: Number(process.exitCode ?? 0), stdout, stderr };
  } finally {
    process.exitCode = savedExitCode;
    Object.assign(console, saved);
    process.stdout.write = streams.out;
    process.stderr.write = streams.err;
    process.stderr.isTTY = streams.tty;
    restoreEnv();
    running = false;
  }
}

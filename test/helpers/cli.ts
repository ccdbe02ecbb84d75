/** Runs the real `socrates` CLI in a child process. */
import { spawn, spawnSync } from "node:child_process";
import { resolve } from "node:path";

const ENTRY = resolve(import.meta.dirname, "../../scripts/socrates.mjs");

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string | undefined> = {}): CliResult {
  const result = spawnSync(process.execPath, [ENTRY, ...args], {
    cwd: resolve(import.meta.dirname, "../.."),
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export interface CliChild {
  pid: number;
  /** Resolves after the process exits and its output ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
  /** SIGKILL, if it is still running. */
  kill(): void;
}

/**
 * The real CLI in a child process, asynchronously (for a test whose mock endpoint lives in the test process). A
 * variable given as undefined is left out of the child's environment.
 */
export function spawnCli(args: string[], env: Record<string, string | undefined> = {}): CliChild {
  const child = spawn(process.execPath, [ENTRY, ...args], {
    cwd: resolve(import.meta.dirname, "../.."),
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (done) => child.on("close", (code, signal) => done({ code, signal, stdout, stderr })),
  );
  return {
    pid: child.pid!,
    exited,
    kill: () => void (child.exitCode === null && child.signalCode === null && child.kill("SIGKILL")),
  };
}

/** Polls `check` until it holds (a wait for another process, never a timing assertion). */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 90_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The words a POSIX shell makes of a printed command line (a real `sh` splits it: quotes and escapes removed). */
export function shellWords(line: string): string[] {
  const split = spawnSync("sh", ["-c", `printf '%s\\0' ${line}`], { encoding: "utf8" });
  if (split.status !== 0) throw new Error(`sh could not split ${JSON.stringify(line)}: ${split.stderr}`);
  return split.stdout.split("\0").slice(0, -1);
}

/**
 * A printed `[NAME=value …] npx socrates …` line as a shell would run it: its environment
 * assignments and the arguments after `npx socrates` (this package's bin, the entry spawnCli starts).
 */
export function printedCommand(line: string): { env: Record<string, string>; args: string[] } {
  const words = shellWords(line);
  const env: Record<string, string> = {};
  let i = 0;
  for (; i < words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[i]); i++) {
    const eq = words[i].indexOf("=");
    env[words[i].slice(0, eq)] = words[i].slice(eq + 1);
  }
  if (words[i] !== "npx" || words[i + 1] !== "socrates") throw new Error(`not an "npx socrates" command: ${line}`);
  return { env, args: words.slice(i + 2) };
}

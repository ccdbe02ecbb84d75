/** Runs the real `socrates` CLI in a child process. */
import { spawn, spawnSync } from "node:child_process";
import { resolve } from "node:path";

const ENTRY = resolve(import.meta.dirname, "../../scripts/socrates.mjs");

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string> = {}): CliResult {
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

/** The real CLI in a child process, asynchronously (for a test whose mock endpoint lives in the test process). */
export function spawnCli(args: string[], env: Record<string, string> = {}): CliChild {
  const child = spawn(process.execPath, [ENTRY, ...args], { cwd: resolve(import.meta.dirname, "../.."), env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((done) =>
    child.on("close", (code, signal) => done({ code, signal, stdout, stderr })),
  );
  return { pid: child.pid!, exited, kill: () => void (child.exitCode === null && child.signalCode === null && child.kill("SIGKILL")) };
}

/** Polls `check` until it holds (a wait for another process, never a timing assertion). */
export async function until(check: () => boolean, what: string, timeoutMs = 90_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

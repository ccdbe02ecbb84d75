/** Runs the real `socrates` CLI in a child process. */
import { spawnSync } from "node:child_process";
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

/**
 * A large CLI import run next to the web server: writes a synthetic bundle of at least a given
 * size (about 3.9 MB per scenario) and runs `socrates import` on it as a real child process,
 * without blocking the caller's event loop (its HTTP clients keep running meanwhile).
 */
import { spawn } from "node:child_process";
import { existsSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { syntheticBundle } from "./synthetic-bundle.ts";

const ROOT = resolve(import.meta.dirname, "..");
const MB_PER_SCENARIO = 3.8;

/** Writes (or reuses, when already in `dir`) a bundle file of at least `minMb` MB; returns its path. */
export function largeBundleFile(dir: string, minMb: number): string {
  const scenarios = Math.ceil(minMb / MB_PER_SCENARIO);
  const path = join(dir, `import-${scenarios}.json`);
  if (!existsSync(path)) writeFileSync(path, JSON.stringify(syntheticBundle(scenarios, "import")));
  const mb = statSync(path).size / 1e6;
  if (mb < minMb) throw new Error(`the synthetic bundle is ${mb.toFixed(1)} MB, short of ${minMb} MB`);
  return path;
}

export interface CliImport {
  /** performance.now() when the process was started and when it exited. */
  startedAt: number;
  done: Promise<{ code: number | null; output: string; endedAt: number }>;
}

/** Starts `socrates import <file>` against `dbPath`; `done` resolves when the process exits. */
export function startCliImport(file: string, dbPath: string): CliImport {
  const child = spawn(process.execPath, [join(ROOT, "scripts/socrates.mjs"), "import", file], {
    cwd: ROOT,
    env: { ...process.env, SOCRATES_DB: dbPath },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const startedAt = performance.now();
  const done = new Promise<{ code: number | null; output: string; endedAt: number }>((ok) =>
    child.once("exit", (code) => ok({ code, output, endedAt: performance.now() })),
  );
  return { startedAt, done };
}

/**
 * The production build the tests serve: `remix vite:build` into build-test/ (never build/, which a
 * running `npm start` in the same folder serves from; scripts/build-dir.ts).
 */
import { spawn, spawnSync } from "node:child_process";
import { resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "..");
export const TEST_BUILD_DIR = "build-test";

function buildCommand(dir: string) {
  const args = [resolve(ROOT, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build", "--logLevel", "warn"];
  return { args, options: { cwd: ROOT, env: { ...process.env, SOCRATES_BUILD_DIR: dir } } };
}

function failure(dir: string, output: string): Error {
  return new Error(`remix vite:build into ${dir}/ failed:\n${output}`);
}

/** Builds the app into `dir` (relative to the repository, or absolute); throws with Vite's output on failure. */
export function buildApp(dir: string = TEST_BUILD_DIR): void {
  const { args, options } = buildCommand(dir);
  const result = spawnSync(process.execPath, args, { ...options, encoding: "utf8" });
  if (result.status !== 0) throw failure(dir, result.stdout + result.stderr);
}

/** The same build without blocking the event loop (for a test that talks to a server meanwhile). */
export function buildAppAsync(dir: string): Promise<void> {
  const { args, options } = buildCommand(dir);
  const child = spawn(process.execPath, args, { ...options, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  return new Promise((ok, fail) => child.once("exit", (code) => (code === 0 ? ok() : fail(failure(dir, output)))));
}

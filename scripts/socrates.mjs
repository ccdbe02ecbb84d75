#!/usr/bin/env node
/**
 * Entry point for `npx socrates`: runs the CLI built ahead into dist/cli/ (scripts/build-cli.mjs;
 * `npm install`, `npm start`, `npm run build` and `npm test` build it). When the sources changed
 * since (a pull, a checkout, an edit) it rebuilds it first, a second or two once. Only when that
 * cannot be done (esbuild not installed, a source that does not compile), or with
 * SOCRATES_CLI_SOURCE=1 for development, it runs the TypeScript sources through tsx: correct, but
 * seconds slower to start on every call.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { CLI_ENTRY, cliBuildIsFresh } from "./cli-bundle.mjs";

/** Rebuilds a stale dist/cli/ in a child process; whether a fresh build is then in place. */
function rebuild() {
  if (process.stderr.isTTY)
    process.stderr.write("socrates: the sources changed since dist/cli/ was built; rebuilding it\n");
  // Build errors are not shown here: the tsx fallback then reports the same source error.
  spawnSync(process.execPath, [join(import.meta.dirname, "build-cli.mjs")], { stdio: "ignore" });
  return cliBuildIsFresh();
}

let cli;
if (process.env.SOCRATES_CLI_SOURCE !== "1" && (cliBuildIsFresh() || rebuild())) {
  // Stack traces of unexpected errors name the TypeScript lines (costs little: maps are read per chunk loaded).
  process.setSourceMapsEnabled(true);
  cli = await import(CLI_ENTRY);
} else {
  if (process.env.SOCRATES_CLI_SOURCE !== "1" && process.stderr.isTTY) {
    // Slower on every call; `npm run build:cli` shows why the build failed.
    process.stderr.write("socrates: could not build dist/cli/; running the sources through tsx\n");
  }
  const { register } = await import("tsx/esm/api");
  register();
  cli = await import("./cli.ts");
}
await cli.main(process.argv);

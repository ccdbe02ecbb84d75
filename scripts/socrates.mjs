#!/usr/bin/env node
/**
 * Entry point for `npx socrates`. Runs the CLI built ahead into dist/cli/ (scripts/build-cli.mjs;
 * `npm install`, `npm start`, `npm run build` and `npm test` build it) when that build is up to
 * date with the sources. Otherwise, or with SOCRATES_CLI_SOURCE=1 (for development), it runs the
 * TypeScript sources through tsx: always correct, only seconds slower to start.
 */
import { CLI_ENTRY, cliBuildIsFresh } from "./cli-bundle.mjs";

let cli;
if (process.env.SOCRATES_CLI_SOURCE !== "1" && cliBuildIsFresh()) {
  // Stack traces of unexpected errors name the TypeScript lines (costs little: maps are read per chunk loaded).
  process.setSourceMapsEnabled(true);
  cli = await import(CLI_ENTRY);
} else {
  if (process.env.SOCRATES_CLI_SOURCE !== "1" && process.stderr.isTTY) {
    process.stderr.write("socrates: dist/cli/ is missing or older than the sources, so they run through tsx (slow to start); `npm run build:cli` rebuilds it\n");
  }
  const { register } = await import("tsx/esm/api");
  register();
  cli = await import("./cli.ts");
}
await cli.main(process.argv);

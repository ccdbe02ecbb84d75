/**
 * Builds the web app once per test run, so browser tests exercise the production server. The
 * build goes to build-test/ (test/helpers/test-build.ts), never to the build/ a running
 * `npm start` serves. When the run is filtered to files outside test/e2e (`vitest run
 * test/unit/x`), no test needs the build and it is skipped, which keeps focused runs fast.
 */
import { buildApp } from "./helpers/test-build.ts";

function filters(): string[] {
  const args = process.argv.slice(2).filter((a) => !a.startsWith("-") && a !== "run" && a !== "watch");
  return args.filter((a) => !a.endsWith("vitest") && !a.endsWith("vitest.mjs"));
}

export default function setup(): void {
  const selected = filters();
  if (selected.length > 0 && !selected.some((f) => f.includes("e2e"))) return;
  buildApp();
}

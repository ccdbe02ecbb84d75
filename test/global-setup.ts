/**
 * Builds the web app once per test run, so browser tests exercise the production server.
 * When the run is filtered to files outside test/e2e (`vitest run test/unit/x`), no test needs
 * the build and it is skipped, which keeps focused runs fast.
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

function filters(): string[] {
  const args = process.argv.slice(2).filter((a) => !a.startsWith("-") && a !== "run" && a !== "watch");
  return args.filter((a) => !a.endsWith("vitest") && !a.endsWith("vitest.mjs"));
}

export default function setup(): void {
  const selected = filters();
  if (selected.length > 0 && !selected.some((f) => f.includes("e2e"))) return;
  const root = resolve(import.meta.dirname, "..");
  const result = spawnSync(process.execPath, [resolve(root, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build", "--logLevel", "warn"], {
    cwd: root,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`remix vite:build failed:\n${result.stdout}\n${result.stderr}`);
}

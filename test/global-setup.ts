/** Builds the web app once per test run, so browser tests exercise the production server. */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";

export default function setup(): void {
  const root = resolve(import.meta.dirname, "..");
  const result = spawnSync(process.execPath, [resolve(root, "node_modules/@remix-run/dev/dist/cli.js"), "vite:build", "--logLevel", "warn"], {
    cwd: root,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`remix vite:build failed:\n${result.stdout}\n${result.stderr}`);
}

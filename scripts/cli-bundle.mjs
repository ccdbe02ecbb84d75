/**
 * Where the built CLI lives and whether it is up to date; read by the `socrates` bin on every
 * call, so it stays plain JavaScript with nothing but node: imports. The build
 * (scripts/build-cli.mjs) records the time it started and every source file it read; the bundle
 * is fresh while each of those files still exists and is no newer than that time (an edit, a
 * checkout or a pull makes it stale, as with make). It must stay inside the checkout: the bundle
 * finds its packages in node_modules/ from where it lies.
 */
import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "..");
/**
 * Git-ignored; replaced whole by each build. SOCRATES_CLI_DIR puts it elsewhere inside the checkout (a test's own
 * build).
 */
export const CLI_DIR = resolve(ROOT, process.env.SOCRATES_CLI_DIR || join("dist", "cli"));
export const CLI_ENTRY = join(CLI_DIR, "cli.mjs");
export const BUILD_INFO = join(CLI_DIR, "build-info.json");

/**
 * @typedef {{ startedAt: number, inputs: string[] }} BuildInfo
 * startedAt: ms since the epoch when the build began; inputs: the files it read, relative to ROOT.
 */

/** @returns {BuildInfo | undefined} */
function readBuildInfo() {
  try {
    return JSON.parse(readFileSync(BUILD_INFO, "utf8"));
  } catch {
    return undefined;
  }
}

/** Whether dist/cli/ holds a complete build no older than any of its sources. */
export function cliBuildIsFresh() {
  const info = readBuildInfo();
  if (!info || !Array.isArray(info.inputs) || info.inputs.length === 0) return false;
  return info.inputs.every((file) => {
    const stat = statSync(join(ROOT, file), { throwIfNoEntry: false });
    return stat !== undefined && stat.mtimeMs <= info.startedAt;
  });
}

/**
 * The esbuild options of a Node entry bundled ahead (the CLI into dist/cli/, the test servers'
 * scripts/serve.ts into build-test/serve/): ES modules with shared chunks, packages left to
 * node_modules, source maps for stack traces.
 * @type {import("esbuild").BuildOptions}
 */
export const NODE_BUNDLE = {
  outExtension: { ".js": ".mjs" },
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
};

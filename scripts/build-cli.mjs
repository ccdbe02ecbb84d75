#!/usr/bin/env node
/**
 * Builds the `socrates` CLI ahead of time into dist/cli/ with esbuild, so a command starts without
 * compiling TypeScript (tsx took seconds on every call). Run by `npm install` (prepare), `npm
 * start`, `npm run build` and the test suite's global setup, and by the `socrates` bin when the
 * sources changed since; it does nothing when the build is fresh (scripts/cli-bundle.mjs) unless
 * given --force. Plain JavaScript so it runs before anything else is built.
 *
 * The bundle is ESM split by command module (scripts/cli.ts imports each on demand); every
 * package stays external, so native and heavy dependencies (better-sqlite3, the AWS SDK, openai,
 * vega) load from node_modules as before. After building it writes commands.json, the top-level
 * commands and their help lines, which lets `socrates --help` answer without loading any module.
 */
import { randomBytes } from "node:crypto";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { BUILD_INFO, CLI_DIR, cliBuildIsFresh, NODE_BUNDLE, ROOT } from "./cli-bundle.mjs";

const SELF = relative(ROOT, new URL(import.meta.url).pathname)
  .split(sep)
  .join("/");

/**
 * Source files that find their data next to themselves (`import.meta.dirname`, e.g. the prompt
 * templates) keep finding it from the bundle: the expression is rewritten to the source folder,
 * relative to dist/cli/ so a moved checkout still works. import.meta.url is left alone (it names
 * the bundle's own files: scripts/cli.ts finds commands.json with it).
 * @type {import("esbuild").Plugin}
 */
const sourceDirectories = {
  name: "source-directories",
  setup(b) {
    b.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.dirname")) return undefined;
      const fromBundle = relative(CLI_DIR, dirname(args.path)).split(sep).join("/");
      const replaced = text.replaceAll(
        "import.meta.dirname",
        `(import.meta.dirname + ${JSON.stringify("/" + fromBundle)})`,
      );
      return { contents: replaced, loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
    });
  },
};

/** Bundles scripts/cli.ts into `outdir`; returns the source files it read, relative to ROOT. */
async function bundle(outdir) {
  const { build } = await import("esbuild");
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: { cli: "scripts/cli.ts" },
    outdir,
    ...NODE_BUNDLE,
    metafile: true,
    plugins: [sourceDirectories],
  });
  return Object.keys(result.metafile.inputs).filter((f) => !f.includes("node_modules/"));
}

/** Moves the finished build `tmp` to dist/cli/, the previous build out of the way and then away. */
async function putInPlace(tmp) {
  const old = `${CLI_DIR}.old-${randomBytes(4).toString("hex")}`;
  await rename(CLI_DIR, old).catch((err) => {
    if (err.code !== "ENOENT") throw err;
  });
  await rename(tmp, CLI_DIR).catch((err) => {
    // Two stale `socrates` calls at once both rebuild; the first to finish stands.
    if (err.code !== "ENOTEMPTY" && err.code !== "EEXIST") throw err;
  });
  await rm(old, { recursive: true, force: true });
}

/** Builds into a fresh folder and then puts it in place of dist/cli/, so a reader never sees half a build. */
export async function buildCli() {
  const startedAt = Date.now();
  const tmp = `${CLI_DIR}.tmp-${randomBytes(4).toString("hex")}`;
  try {
    const inputs = await bundle(tmp);
    const { describeCommands } = await import(pathToFileURL(join(tmp, "cli.mjs")).href);
    await writeFile(join(tmp, "commands.json"), JSON.stringify(await describeCommands(), null, 1) + "\n");
    const info = { startedAt, inputs: [...inputs, SELF].sort() };
    await writeFile(join(tmp, relative(CLI_DIR, BUILD_INFO)), JSON.stringify(info, null, 1) + "\n");
    await putInPlace(tmp);
    return info.inputs.length;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Whether esbuild is installed (a dev dependency: `npm install --omit=dev` leaves it out). */
async function haveEsbuild() {
  try {
    await import("esbuild");
    return true;
  } catch {
    return false;
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  if (!(await haveEsbuild())) {
    // Not an error: without the build the `socrates` bin runs the sources through tsx.
    process.stdout.write("esbuild is not installed (dev dependency); the socrates CLI will run from source\n");
  } else if (process.argv.includes("--force") || !cliBuildIsFresh()) {
    const count = await buildCli();
    process.stdout.write(`built the socrates CLI into ${relative(ROOT, CLI_DIR)}/ from ${count} source files\n`);
  }
  // Importing the bundle (for commands.json) may leave handles open; the build is done.
  process.exit(0);
}

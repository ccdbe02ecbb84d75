/**
 * What the browser tests' servers start from, made once per test run by test/global-setup.ts:
 * - scripts/serve.ts bundled by esbuild, so each server starts on plain node instead of tsx
 *   compiling and loading some 250 modules through its loader (about 2 s a start on 2 cores);
 * - a database the real server seeded with the demo on its first start, which a server given no
 *   database starts on a copy of (seeding took about 1.5 s a start). The test of the first start
 *   itself asks for an empty database (startAppServer's `seedOnStart`).
 * Their paths go to the test processes in SOCRATES_TEST_SERVER and SOCRATES_TEST_SEEDED_DB; without them
 * (a bench, the screenshots script, a focused unit run) servers start from the sources on an empty database.
 */
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { Plugin } from "esbuild";
import { NODE_BUNDLE } from "../scripts/cli-bundle.mjs";
import { ROOT, TEST_BUILD_DIR } from "./test-build.ts";

/** Sources that find their data next to themselves keep finding it from the bundle. */
const sourceDirectories: Plugin = {
  name: "source-directories",
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      if (!text.includes("import.meta.dirname")) return undefined;
      const contents = text.replaceAll("import.meta.dirname", JSON.stringify(dirname(args.path)));
      return { contents, loader: args.path.endsWith(".tsx") ? "tsx" : "ts" };
    });
  },
};

/**
 * Bundles scripts/serve.ts into build-test/serve/ (after the app build, which empties build-test/); returns the
 * entry. Packages stay external: they load from node_modules as under tsx.
 */
export async function buildServerBundle(): Promise<string> {
  const { build } = await import("esbuild");
  const outdir = join(ROOT, TEST_BUILD_DIR, "serve");
  await build({
    absWorkingDir: ROOT,
    entryPoints: { serve: "scripts/serve.ts" },
    outdir,
    ...NODE_BUNDLE,
    plugins: [sourceDirectories],
  });
  return join(outdir, "serve.mjs");
}

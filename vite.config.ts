import { vitePlugin as remix } from "@remix-run/dev";
import { dirname, relative, resolve, sep } from "node:path";
import { defineConfig, type Plugin } from "vite";
import { buildDirectory } from "./scripts/build-dir.ts";

/**
 * Server files that find their data beside themselves (`import.meta.dirname`: the prompt templates
 * the run and evaluation identities hash) keep finding it from the server build, which runs from
 * <build>/server/: the same rewrite scripts/build-cli.mjs makes for the CLI bundle. The dev server
 * runs the sources on this machine, so there the folder is written out whole.
 */
function sourceDirname(): Plugin {
  let serverOut = "";
  let dev = false;
  return {
    name: "socrates-source-dirname",
    configResolved(config) {
      dev = config.command === "serve";
      serverOut = resolve(config.root, buildDirectory(), "server");
    },
    transform(code, id) {
      if (!code.includes("import.meta.dirname") || id.includes("node_modules")) return undefined;
      const dir = dirname(id.split("?")[0]);
      const replacement = dev
        ? JSON.stringify(dir)
        : `(import.meta.dirname + ${JSON.stringify(`/${relative(serverOut, dir).split(sep).join("/")}`)})`;
      return { code: code.replaceAll("import.meta.dirname", replacement), map: null };
    },
  };
}

export default defineConfig({
  plugins: [
    sourceDirname(),
    remix({
      // build/ for `npm start`; the tests build elsewhere (scripts/build-dir.ts).
      buildDirectory: buildDirectory(),
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        // Off: with some 26 routes the whole route manifest rides in the page (a few kB), and a
        // browser moving to a new item path no longer asks /__manifest first — one request per
        // item less for the server and one round-trip less before the next item shows.
        v3_lazyRouteDiscovery: false,
      },
    }),
  ],
  server: { port: 3000 },
  build: { chunkSizeWarningLimit: 1500 },
});
